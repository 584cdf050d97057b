"""What each occurrence of a name in a repo refers to, in the renamer's four groups
(modules, module-level names, attributes, locals; see plan.py), and what the repo
defines in each. Resolution goes through the scopes and the kinds of expressions, so a
definition and each of its uses resolve to the same spelling in the same group.

`Resolver` answers; `Planner` (plan.py) decides on its answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import (
    AttrUse,
    Binding,
    ImportNameUse,
    KeywordUse,
    ModulePathUse,
    NameUse,
    Scope,
    StringUse,
)
from torch_investigate.evals.rename.configs import ConfigFile, read_config
from torch_investigate.evals.rename.kinds import Kind, Kinds
from torch_investigate.evals.rename.library import is_namespace, library_attributes
from torch_investigate.evals.rename.program import ClassInfo, FunctionInfo, Program
from torch_investigate.evals.rename.repo import CONVENTIONAL_FILES, Repo
from torch_investigate.evals.rename.strings import role_of
from torch_investigate.tools.code.syntax import text

Group = Literal["module", "module-level", "attribute", "local"]
CONVENTIONS = frozenset({"self", "cls", "_", "__class__"})


@dataclass(frozen=True)
class Ref:
    """An occurrence that names something of the repo: which group, which spelling."""

    group: Group
    spelling: str
    binding: Binding | None = None  # locals: the binding (its scope may be dynamic)


@dataclass
class ArgOption:
    """One `add_argument(...)`: its option strings and the dest they fill."""

    file: str
    dest: str
    options: list[tuple[Node, str]]  # (string node, option text)
    dest_node: Node | None  # an explicit dest="..." string, or a positional's name
    scope: Scope


class Resolver:
    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.p = Program.build(repo)
        self.kinds = Kinds(self.p)
        self.configs: dict[str, ConfigFile] = {}
        for rel in repo.config_files():
            cf = read_config(rel, repo.files[rel])
            if cf is not None:
                self.configs[rel] = cf
        self.libattrs = library_attributes(self._library_paths())
        self.options = self._argparse_options()
        # what the repo defines: spelling -> what defines it ("class", "param", ...)
        self.mg: dict[str, set[str]] = {}
        self.ag: dict[str, set[str]] = {}
        self.local: dict[str, set[str]] = {}
        self.module_names: set[str] = set()
        self.config_keys = {k for cf in self.configs.values() for k in cf.key_names}
        self.config_read: set[str] = set()  # config keys the code reads by a literal

    # ---- what the repo defines -------------------------------------------------------

    def define(self) -> None:
        for rel in self.repo.python:
            parts = rel.split("/")
            name = parts[-1]
            if name not in CONVENTIONAL_FILES and name[:-3].isidentifier():
                self.module_names.add(name[:-3])
            for i in range(len(parts) - 1):
                folder = "/".join(parts[: i + 1])
                if folder in self.repo.packages and parts[i].isidentifier():
                    self.module_names.add(parts[i])
        for fs in self.p.files.values():
            for scope in fs.scopes:
                for b in scope.bindings.values():
                    ref = self.binding_ref(b)
                    if ref is None:
                        continue
                    what = self._what(b)
                    table = {"module-level": self.mg, "attribute": self.ag, "local": self.local}
                    if ref.group in table:
                        table[ref.group].setdefault(ref.spelling, set()).add(what)
        for cls in self.p.classes.values():
            for name, members in cls.members.items():
                for m in members:
                    if m.how == "instance" and not dunder(name):
                        self.ag.setdefault(name, set()).add("attribute")
        for opt in self.options:
            self.ag.setdefault(opt.dest, set()).add("option")
        for fs in self.p.files.values():
            for use in fs.strings:
                role, _ = role_of(use.node)
                if role in ("key", "dictkey") and use.content in self.config_keys:
                    self.config_read.add(use.content)
            for use in fs.keywords:
                if self._callee_path(use) == "builtins.dict" and text(use.node) in self.config_keys:
                    self.config_read.add(text(use.node))
        for key in self.config_keys:
            if key in self.config_read or key in self.ag:
                self.ag.setdefault(key, set()).add("config key")
        for spelling in [s for s in self.ag if dunder(s)]:
            del self.ag[spelling]
        for spelling in [s for s in self.mg if dunder(s)]:
            del self.mg[spelling]

    def _what(self, b: Binding) -> str:
        if b.role == "class":
            return "class"
        if b.role == "def":
            return "method" if b.scope.kind == "class" else "function"
        if b.role == "param":
            return "param"
        if b.role == "import":
            return "import alias"
        return "variable"

    # ---- what an occurrence refers to -------------------------------------------------------

    def binding_ref(self, b: Binding) -> Ref | None:
        name = b.name
        if dunder(name):
            return None
        if b.role == "import":
            return self._import_ref(b)
        kind = b.scope.kind
        if kind == "module":
            return Ref("module-level", name)
        if kind == "class":
            return Ref("attribute", name)
        if b.role == "param" and kind == "function":
            fn = self.p.function(b.scope.file, b.definition) if b.definition is not None else None
            if name in CONVENTIONS:
                return None
            if fn is not None and fn.owner is not None and not fn.is_static:
                if fn.params and fn.params[0].binding is b:
                    return None  # self / cls, whatever its spelling
            return Ref("attribute", name)
        if name in CONVENTIONS:
            return None
        return Ref("local", name, b)

    def _import_ref(self, b: Binding) -> Ref | None:
        targets = {(t.file, t.name, t.library) for t in b.imports}
        if len(targets) != 1:
            return None
        file, member, library = next(iter(targets))
        if file is None:
            return None  # a library's name keeps its spelling
        aliased = any(is_alias(site) for site in b.sites)
        if not aliased:
            if member is None:
                return Ref("module", b.name)
            return Ref("module-level", b.name)
        kind = b.scope.kind
        group: Group = {"module": "module-level", "class": "attribute"}.get(kind, "local")  # type: ignore[assignment]
        return Ref(group, b.name, b if group == "local" else None)

    def name_ref(self, use: NameUse) -> Ref | None:
        if use.binding is not None:
            return self.binding_ref(use.binding)
        b = self.kinds.star_binding(use.scope, text(use.node))
        return self.binding_ref(b) if b is not None else None

    def attr_ref(self, use: AttrUse) -> tuple[Ref | None, str | None]:
        """(the repo name the attribute reaches, or None; why its spelling must stay)."""
        name = text(use.node)
        if dunder(name):
            return None, None
        k = self.kinds.of(use.obj, use.scope)
        if k.tag == "module":
            found = [self._module_attr(f, name) for f in k.refs]
            if found and all(f == found[0] for f in found):
                return found[0], None
            return None, None
        if k.tag in ("class", "instance"):
            classes = [self.p.classes.get(r) for r in k.refs]
            owners = [
                self.kinds.classes.find_member(c, name) if c is not None else None for c in classes
            ]
            if owners and all(o is not None for o in owners):
                return Ref("attribute", name), None
            if any(c is not None and self.kinds.classes.library_base(c) for c in classes):
                return None, "an attribute of a library object"
            return self._unknown_attr(name)
        if k.tag == "lib" and k.strong:
            if k.path and is_namespace(k.path):
                return None, None  # a library module's or class's own member
            return None, "an attribute of a library object"
        if k.tag == "function":
            return None, "an attribute of a function"
        if k.tag == "namespace" and name in self._dests:
            return Ref("attribute", name), None
        return self._unknown_attr(name)

    def _unknown_attr(self, name: str) -> tuple[Ref | None, str | None]:
        if name not in self.ag:
            return None, None
        if name in self.libattrs:
            return Ref(
                "attribute", name
            ), "on an object of unknown type, and a library owns an attribute so named"
        return Ref("attribute", name), None

    def _module_attr(self, file: str, name: str) -> Ref | None:
        if self.repo.submodule(file, name) is not None:
            return Ref("module", name)
        scope = self.p.module_scope(file)
        if scope is None:
            return None
        b = scope.bindings.get(name) or self.kinds.star_binding(scope, name)
        if b is None:
            return None
        if b.role == "import":
            return self._import_ref(b)
        return Ref("module-level", name)

    def import_name_ref(self, use: ImportNameUse) -> Ref | None:
        if use.module is None:
            return None
        return self._module_attr(use.module, text(use.node))

    def module_path_ref(self, use: ModulePathUse) -> Ref | None:
        if use.module is None:
            return None
        name = text(use.node)
        return Ref("module", name) if name in self.module_names else None

    def keyword_ref(self, use: KeywordUse) -> tuple[Ref | None, str | None]:
        name = text(use.node)
        func = use.call.child_by_field_name("function")
        if func is None:
            return None, None
        path = self._callee_path(use)
        if path == "builtins.dict":
            return (Ref("attribute", name), None) if name in self.config_keys else (None, None)
        if func.type == "attribute":
            attr = func.child_by_field_name("attribute")
            if attr is not None and text(attr) == "set_defaults":
                return Ref("attribute", name), None
        callee = self.kinds.of(func, use.scope)
        if callee.tag == "lib" and callee.strong:
            return None, None
        if (callee.is_unknown or callee.tag == "lib") and func.type == "attribute":
            method = func.child_by_field_name("attribute")
            if method is not None and not self._repo_methods(text(method)):
                return None, None  # no repo class has such a method: a library's call
        functions, fields = self._callables(callee)
        if functions is None:
            return Ref("attribute", name), "passed by keyword to a call I cannot resolve"
        if name in fields:
            return Ref("attribute", name), None
        if not functions:
            return None, None  # a library class's own __init__
        declared = [any(p.name == name and p.kind in ("positional", "keyword_only")
                        for p in fn.params) for fn in functions]  # fmt: skip
        if all(declared):
            return Ref("attribute", name), None
        if any(fn.has_kwargs for fn in functions):
            return Ref("attribute", name), "passed on through **kwargs"
        return Ref("attribute", name), "a keyword its callee does not declare"

    def _repo_methods(self, name: str) -> list[FunctionInfo]:
        return [
            m.function
            for cls in self.p.classes.values()
            for m in cls.members.get(name, [])
            if m.function is not None
        ]

    def _callables(self, callee: Kind) -> tuple[list[FunctionInfo] | None, set[str]]:
        """The repo functions a call runs (None: cannot tell) and, for a class without a
        repo __init__, the field names its generated or library __init__ takes."""
        if callee.tag == "function":
            return [self.p.functions[r] for r in callee.refs if r in self.p.functions], set()
        if callee.tag == "class":
            out: list[FunctionInfo] = []
            fields: set[str] = set()
            for ref in callee.refs:
                cls = self.p.classes.get(ref)
                if cls is None:
                    return None, set()
                owner = self.kinds.classes.find_member(cls, "__init__")
                if owner is not None and owner in self.kinds.classes.mro(cls):
                    out += [m.function for m in owner.members["__init__"] if m.function]
                else:
                    fields |= self._fields(cls)
                    if not self.kinds.classes.library_bases(cls) and not cls.is_dataclass:
                        return None, set()
            return out, fields
        if callee.tag == "instance":
            out = []
            for ref in callee.refs:
                cls = self.p.classes.get(ref)
                if cls is None:
                    return None, set()
                for method in ("forward", "__call__"):
                    owner = self.kinds.classes.find_member(cls, method)
                    if owner is not None:
                        out += [m.function for m in owner.members[method] if m.function]
                        break
                else:
                    return None, set()
            return out, set()
        return None, set()

    def _fields(self, cls: ClassInfo) -> set[str]:
        return {
            name
            for c in self.kinds.classes.mro(cls)
            for name, members in c.members.items()
            if any(m.how == "classattr" for m in members)
        }

    def _callee_path(self, use: KeywordUse) -> str | None:
        func = use.call.child_by_field_name("function")
        if func is None:
            return None
        k = self.kinds.of(func, use.scope)
        return k.path if k.tag == "lib" else None

    def string_ref(self, use: StringUse) -> Ref | None:
        """A string renamed with a name: a config key read by literal, an `__all__` entry,
        an annotation naming a module-level class."""
        role, _ = role_of(use.node)
        content = use.content
        if role in ("key", "dictkey") and content in self.config_keys:
            holder = self._key_holder(use.node) if role == "key" else None
            if holder is not None and self.kinds.of(holder, use.scope).tag == "lib":
                return None
            return Ref("attribute", content)
        if role == "all" and content in self.mg:
            return Ref("module-level", content)
        if role == "annotation" and content in self.mg:
            return Ref("module-level", content)
        return None

    def _key_holder(self, string: Node) -> Node | None:
        """The object a key string indexes: `x` in x["k"] or x.get("k")."""
        parent = string.parent
        if parent is not None and parent.type == "subscript":
            return parent.child_by_field_name("value")
        if parent is not None and parent.type == "argument_list":
            call = parent.parent
            func = call.child_by_field_name("function") if call is not None else None
            if func is not None and func.type == "attribute":
                return func.child_by_field_name("object")
        return None

    # ---- repo facts ------------------------------------------------------------------

    def _library_paths(self) -> set[str]:
        paths = set()
        for fs in self.p.files.values():
            for scope in fs.scopes:
                for b in scope.bindings.values():
                    for t in b.imports:
                        if t.library:
                            paths.add(t.library)
                for t in scope.star_imports:
                    if t.library:
                        paths.add(t.library)
        return paths

    def _argparse_options(self) -> list[ArgOption]:
        out = []
        for fs in self.p.files.values():
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                attr = (
                    func.child_by_field_name("attribute")
                    if func is not None and func.type == "attribute"
                    else None
                )
                if attr is None or text(attr) != "add_argument":
                    continue
                args = use.node.child_by_field_name("arguments")
                if args is None:
                    continue
                strings = []
                dest_node = None
                for a in args.named_children:
                    if a.type == "string" and not has_interpolation(a):
                        strings.append((a, string_content(a)))
                    elif a.type == "keyword_argument":
                        n = a.child_by_field_name("name")
                        v = a.child_by_field_name("value")
                        if (
                            n is not None
                            and text(n) == "dest"
                            and v is not None
                            and v.type == "string"
                        ):
                            dest_node = v
                if not strings:
                    continue
                options = [(n, s) for n, s in strings if s.startswith("-")]
                if dest_node is not None:
                    dest = string_content(dest_node)
                elif options:
                    longs = [s for _, s in options if s.startswith("--")]
                    dest = dest_of(longs[0] if longs else options[0][1])
                else:
                    dest_node, dest = strings[0]
                if dest.isidentifier():
                    out.append(ArgOption(fs.file, dest, options, dest_node, use.scope))
        return out

    @cached_property
    def _dests(self) -> set[str]:
        return {o.dest for o in self.options}


def dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def is_alias(site: Node) -> bool:
    parent = site.parent
    return (
        parent is not None
        and parent.type == "aliased_import"
        and parent.child_by_field_name("alias") is not None
        and parent.child_by_field_name("alias").start_byte == site.start_byte
    )


def dest_of(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def string_content(node: Node) -> str:
    return "".join(text(c) for c in node.named_children if c.type == "string_content")


def has_interpolation(node: Node) -> bool:
    return any(c.type == "interpolation" for c in node.named_children)
