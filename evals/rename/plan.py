"""Which names of a repo get neutral spellings, and why the others keep theirs.

Names fall in four groups, each decided per spelling:
- modules: file and package names (`m3.py`), resolved exactly through imports;
- module-level names: what a module's top level binds (functions, classes, globals),
  reached by bare names, `from m import x` and `m.x`;
- attributes: what classes and instances carry (methods, class attributes, `self.x`),
  parameters (a keyword argument names them), config keys and argparse dests. They
  form one group because Python links them by spelling: `Model(**cfg["model"])` turns
  config keys into parameters, a dataclass's fields are its `__init__`'s parameters,
  `vars(args)` turns dests into keys. One decision per spelling keeps every link intact;
- locals: a function's own variables, renamed unless the function reads its locals by
  name (`locals()`, `eval`).

A spelling keeps its name (with the reason) when any use of it could reach a library or
cannot be resolved: an attribute of a library object, an override of a library method, an
attribute of an object of unknown type that a library also owns, a keyword to a call the
renamer cannot resolve, a string that names it where Python looks names up.
"""

from __future__ import annotations

import keyword
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from tree_sitter import Node

from torch_investigate.evals.rename.configs import ConfigFile, read_config
from torch_investigate.evals.rename.kinds import Kind, Kinds
from torch_investigate.evals.rename.library import (
    class_attributes,
    is_namespace,
    library_attributes,
)
from torch_investigate.evals.rename.names import NameAllocator
from torch_investigate.evals.rename.program import ClassInfo, FunctionInfo, Program
from torch_investigate.evals.rename.repo import CONVENTIONAL_FILES, Repo
from torch_investigate.evals.rename.scopes import (
    AttrUse,
    Binding,
    ImportNameUse,
    KeywordUse,
    ModulePathUse,
    NameUse,
    Scope,
    StringUse,
)
from torch_investigate.evals.rename.strings import names_in, role_of
from torch_investigate.tools.code.syntax import text

Group = Literal["module", "module-level", "attribute", "local"]
CONVENTIONS = frozenset({"self", "cls", "_", "__class__"})
# library methods a repo overrides that only the repo's own code calls (nn.Module's
# __call__ hands forward what the caller passed): their parameters may be renamed
CALLED_BY_THE_REPO = frozenset({"forward"})
# results of these calls are a repo object's attributes as a dict
ATTRIBUTE_DICTS = frozenset({"vars", "asdict", "_asdict", "__dict__", "model_dump", "dict"})


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


@dataclass
class Plan:
    modules: dict[str, str] = field(default_factory=dict)  # module spelling -> new
    names: dict[str, str] = field(default_factory=dict)  # any other spelling -> new
    module_level: set[str] = field(default_factory=set)  # renamed module-level spellings
    attributes: set[str] = field(default_factory=set)  # renamed attribute spellings
    flags: dict[str, str] = field(default_factory=dict)  # "--batch-size" -> "--v3"
    kept: dict[tuple[str, str], str] = field(default_factory=dict)  # (group, spelling) -> why
    config_keys: dict[str, str] = field(default_factory=dict)  # renamed config keys

    def new(self, ref: Ref | None) -> str | None:
        """The new spelling for an occurrence, or None when it keeps its own."""
        if ref is None:
            return None
        s = ref.spelling
        if ref.group == "module":
            return self.modules.get(s)
        if ref.group == "module-level":
            return self.names.get(s) if s in self.module_level else None
        if ref.group == "attribute":
            return self.names.get(s) if s in self.attributes else None
        if ref.binding is not None and ref.binding.scope.dynamic:
            return None
        return self.names.get(s)

    def kept_counts(self) -> Counter:
        return Counter(reason for reason in self.kept.values())


class Planner:
    def __init__(self, repo: Repo, commands: list[str] | None = None) -> None:
        self.repo = repo
        self.p = Program.build(repo)
        self.kinds = Kinds(self.p)
        self.commands = commands or []
        self.configs: dict[str, ConfigFile] = {}
        for rel in repo.config_files():
            cf = read_config(rel, repo.files[rel])
            if cf is not None:
                self.configs[rel] = cf
        self.libattrs = library_attributes(self._library_paths())
        self.options = self._argparse_options()
        # spelling -> what defines it ("class", "function", "method", "param", ...)
        self.mg: dict[str, set[str]] = {}
        self.ag: dict[str, set[str]] = {}
        self.local: dict[str, set[str]] = {}
        self.module_names: set[str] = set()
        self.blocked: dict[tuple[str, str], str] = {}
        self.config_keys = {k for cf in self.configs.values() for k in cf.key_names}
        self.config_read: set[str] = set()  # config keys the code reads by a literal

    # ---- the plan --------------------------------------------------------------------

    def plan(self) -> Plan:
        self._collect()
        self._block()
        return self._allocate()

    # ---- collecting what the repo defines -------------------------------------------

    def _collect(self) -> None:
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
                    if m.how == "instance" and not _dunder(name):
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
        for spelling in [s for s in self.ag if _dunder(s)]:
            del self.ag[spelling]
        for spelling in [s for s in self.mg if _dunder(s)]:
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

    # ---- blocking --------------------------------------------------------------------

    def block(self, group: Group, spelling: str, reason: str) -> None:
        self.blocked.setdefault((group, spelling), reason)

    def _block(self) -> None:
        for table, group in ((self.mg, "module-level"), (self.ag, "attribute")):
            for spelling in table:
                if spelling in CONVENTIONS or keyword.iskeyword(spelling):
                    self.block(group, spelling, "a convention")  # type: ignore[arg-type]
        self._block_overrides()
        self._block_attributes()
        self._block_keywords()
        self._block_strings()
        self._block_configs()
        self._block_splats()
        self._block_options()
        for fs in self.p.files.values():
            if fs.uses_match:
                for scope in fs.scopes:
                    for name in scope.bindings:
                        self.block("attribute", name, "used in a match statement")
                        self.block("module-level", name, "used in a match statement")

    def _block_overrides(self) -> None:
        for cls in self.p.classes.values():
            bases = self.kinds.library_bases(cls)
            if not bases:
                continue
            owned: set[str] = set()
            unknown_base = False
            for path in bases:
                attrs = class_attributes(path) if path else None
                if attrs is None:
                    unknown_base = path != "builtins.object"
                    continue
                owned |= attrs
            for name, members in cls.members.items():
                if _dunder(name):
                    continue
                if name in owned:
                    self.block("attribute", name, "overrides a library attribute")
                    if name in CALLED_BY_THE_REPO:
                        continue
                    for m in members:
                        for param in m.function.params[1:] if m.function else []:
                            self.block(
                                "attribute", param.name,
                                "a parameter of a library method's override (passed by keyword)",
                            )  # fmt: skip
                elif unknown_base:
                    self.block("attribute", name, "a member of a class whose base is unknown")

    def _block_attributes(self) -> None:
        for fs in self.p.files.values():
            for use in fs.attributes:
                name = text(use.node)
                ref, reason = self.attr_ref(use)
                if reason is not None and name in self.ag:
                    self.block("attribute", name, reason)
                if ref is None and name in self.mg and self._dynamic_modules:
                    self.block("module-level", name, "modules are imported by a computed name")

    def _block_keywords(self) -> None:
        for fs in self.p.files.values():
            for use in fs.keywords:
                name = text(use.node)
                if name not in self.ag:
                    continue
                _, reason = self.keyword_ref(use)
                if reason is not None:
                    self.block("attribute", name, reason)

    def _block_strings(self) -> None:
        reach = self._strings_reach_names
        dynamic = self._dynamic_attributes
        for fs in self.p.files.values():
            for use in fs.strings:
                role, _ = role_of(use.node)
                if role in ("docstring", "prose", "annotation", "argparse", "all"):
                    continue
                if role == "module":
                    for part in use.content.split("."):
                        if part in self.module_names:
                            self.block("module", part, "imported by a string")
                    continue
                dotted = "." in use.content
                for name in names_in(use.content):
                    if role == "attrname":
                        self.block("attribute", name, "named by a string (getattr and kin)")
                        self.block("module-level", name, "named by a string (getattr and kin)")
                    elif role in ("compare", "fields") or dotted:
                        self.block("attribute", name, "compared with or named in a string")
                    elif role in ("key", "dictkey"):
                        if name in self.config_keys and not dotted:
                            continue  # renamed with the config key
                        if reach:
                            self.block("attribute", name, "a dict key while dicts reach names")
                    elif dynamic:
                        self.block(
                            "attribute",
                            name,
                            "a string while attributes are looked up by computed names",
                        )
                        self.block(
                            "module-level",
                            name,
                            "a string while attributes are looked up by computed names",
                        )
        for cf in self.configs.values():
            for value in cf.values:
                for name in names_in(value):
                    self.block("module-level", name, "named by a config value")
                    if dynamic:
                        self.block("attribute", name, "named by a config value")

    def _block_configs(self) -> None:
        for cf in self.configs.values():
            trial = {k: f"renamed_{i}" for i, k in enumerate(sorted(cf.key_names))}
            if cf.rewrite(trial) is None:
                for key in cf.key_names:
                    self.block(
                        "attribute", key, f"a key of {cf.rel}, which I cannot rewrite faithfully"
                    )
        for fs in self.p.files.values():
            for use in fs.strings:
                role, _ = role_of(use.node)
                if role != "key" or use.content not in self.config_keys:
                    continue
                holder = self._key_holder(use.node)
                if holder is None:
                    continue
                k = self.kinds.of(holder, use.scope)
                if k.tag == "lib":
                    self.block("attribute", use.content, "a key into a library object")

    def _block_splats(self) -> None:
        for fs in self.p.files.values():
            for use in fs.calls:
                args = use.node.child_by_field_name("arguments")
                if args is None or args.type != "argument_list":
                    continue
                splats = [a for a in args.named_children if a.type == "dictionary_splat"]
                if not splats:
                    continue
                func = use.node.child_by_field_name("function")
                callee = self.kinds.of(func, use.scope) if func is not None else None
                if callee is not None and callee.tag in ("function", "class", "instance"):
                    continue
                for splat in splats:
                    inner = splat.named_children[0] if splat.named_children else None
                    for key in self._splat_keys(inner, use.scope):
                        self.block("attribute", key, "passed with ** to a library call")

    def _splat_keys(self, node: Node | None, scope: Scope, depth: int = 0) -> set[str]:
        """Keys a dict passed with ** may hold, when it is a config section or a
        namespace turned into a dict."""
        if node is None or depth > 3:
            return set()
        if node.type == "identifier":
            from torch_investigate.evals.rename.scopes import lookup

            b = lookup(scope, text(node))
            if b is None:
                return set()
            out: set[str] = set()
            for v in b.values:
                if v.how == "expr" and not v.index:
                    out |= self._splat_keys(v.node, b.scope, depth + 1)
            return out
        if node.type == "subscript":
            key = node.child_by_field_name("subscript")
            if key is not None and key.type == "string":
                return self._section_keys(_string_content(key))
        if node.type == "call":
            func = node.child_by_field_name("function")
            name = text(func).split(".")[-1] if func is not None else ""
            if name in ATTRIBUTE_DICTS:
                return {o.dest for o in self.options} | set(self.ag)
        return set()

    def _section_keys(self, section: str) -> set[str]:
        out: set[str] = set()

        def walk(data: object) -> None:
            if isinstance(data, dict):
                for k, v in data.items():
                    if k == section and isinstance(v, dict):
                        out.update(str(x) for x in v)
                    walk(v)

        for cf in self.configs.values():
            walk(cf.data)
        return out

    def _block_options(self) -> None:
        defined = {o for opt in self.options for _, o in opt.options}
        by_option = {o: opt for opt in self.options for _, o in opt.options}
        for command in self.commands:
            for word in command.split():
                flag = word.split("=", 1)[0]
                if not flag.startswith("--") or flag in defined:
                    continue
                for option, opt in by_option.items():
                    if option.startswith(flag):
                        self.block("attribute", opt.dest, "abbreviated on a command line")
        for opt in self.options:
            if opt.dest_node is None and not any(o.startswith("--") for _, o in opt.options):
                self.block("attribute", opt.dest, "an option with only a short flag")

    # ---- allocation ------------------------------------------------------------------

    def _allocate(self) -> Plan:
        plan = Plan()
        taken = self._all_spellings()
        names = NameAllocator(taken)
        for spelling in sorted(self.module_names):
            reason = self.blocked.get(("module", spelling))
            if reason is None:
                plan.modules[spelling] = names.new("m")
            else:
                plan.kept[("module", spelling)] = reason
        kinds_of: dict[str, set[str]] = {}
        for table in (self.mg, self.ag, self.local):
            for spelling, what in table.items():
                kinds_of.setdefault(spelling, set()).update(what)
        for group, table in (("module-level", self.mg), ("attribute", self.ag)):
            for spelling in sorted(table):
                reason = self.blocked.get((group, spelling))
                if reason is None:
                    (plan.module_level if group == "module-level" else plan.attributes).add(
                        spelling
                    )
                else:
                    plan.kept[(group, spelling)] = reason
        wanted = (
            plan.module_level
            | plan.attributes
            | {s for s in self.local if s not in CONVENTIONS and not _dunder(s)}
        )
        for spelling in sorted(wanted):
            what = kinds_of.get(spelling, set())
            prefix = "C" if "class" in what else ("f" if what & {"function", "method"} else "v")
            plan.names[spelling] = names.new(prefix)
        for opt in self.options:
            if opt.dest in plan.attributes:
                for _, option in opt.options:
                    if option.startswith("--") and _dest_of(option) == opt.dest:
                        plan.flags[option] = "--" + plan.names[opt.dest]
        plan.config_keys = {
            k: plan.names[k] for k in self.config_keys if k in plan.attributes and k in plan.names
        }
        for fs in self.p.files.values():
            for scope in fs.scopes:
                if scope.dynamic:
                    for name in scope.bindings:
                        plan.kept.setdefault(
                            ("local", name), "a scope that reads its locals by name"
                        )
        for key in sorted(self.config_keys - set(plan.config_keys)):
            if ("attribute", key) not in plan.kept:
                plan.kept[("config", key)] = "a config key the code does not read by name"
        return plan

    def _all_spellings(self) -> set[str]:
        taken: set[str] = set(self.libattrs)
        for f in self.repo.python.values():
            stack = [f.root]
            while stack:
                n = stack.pop()
                if n.type == "identifier":
                    taken.add(text(n))
                stack.extend(n.children)
        for fs in self.p.files.values():
            for use in fs.strings:
                taken.update(names_in(use.content))
        taken |= self.config_keys
        return taken

    # ---- resolving occurrences -------------------------------------------------------

    def binding_ref(self, b: Binding) -> Ref | None:
        name = b.name
        if _dunder(name):
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
        aliased = any(_is_alias(site) for site in b.sites)
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
        if _dunder(name):
            return None, None
        k = self.kinds.of(use.obj, use.scope)
        if k.tag == "module":
            found = [self._module_attr(f, name) for f in k.refs]
            if found and all(f == found[0] for f in found):
                return found[0], None
            return None, None
        if k.tag in ("class", "instance"):
            classes = [self.p.classes.get(r) for r in k.refs]
            owners = [self.kinds.find_member(c, name) if c is not None else None for c in classes]
            if owners and all(o is not None for o in owners):
                return Ref("attribute", name), None
            if any(c is not None and self.kinds.library_base(c) for c in classes):
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
                owner = self.kinds.find_member(cls, "__init__")
                if owner is not None and owner in self.kinds.mro(cls):
                    out += [m.function for m in owner.members["__init__"] if m.function]
                else:
                    fields |= self._fields(cls)
                    if not self.kinds.library_bases(cls) and not cls.is_dataclass:
                        return None, set()
            return out, fields
        if callee.tag == "instance":
            out = []
            for ref in callee.refs:
                cls = self.p.classes.get(ref)
                if cls is None:
                    return None, set()
                for method in ("forward", "__call__"):
                    owner = self.kinds.find_member(cls, method)
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
            for c in self.kinds.mro(cls)
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
                    if a.type == "string" and not _has_interpolation(a):
                        strings.append((a, _string_content(a)))
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
                    dest = _string_content(dest_node)
                elif options:
                    longs = [s for _, s in options if s.startswith("--")]
                    dest = _dest_of(longs[0] if longs else options[0][1])
                else:
                    dest_node, dest = strings[0]
                if dest.isidentifier():
                    out.append(ArgOption(fs.file, dest, options, dest_node, use.scope))
        return out

    @cached_property
    def _dests(self) -> set[str]:
        return {o.dest for o in self.options}

    @cached_property
    def _strings_reach_names(self) -> bool:
        """Whether dict keys can become names here: a ** splat into a repo call, or a
        repo object's attributes read as a dict."""
        for fs in self.p.files.values():
            for use in fs.calls:
                args = use.node.child_by_field_name("arguments")
                if args is None or args.type != "argument_list":
                    continue
                if any(a.type == "dictionary_splat" for a in args.named_children):
                    func = use.node.child_by_field_name("function")
                    k = self.kinds.of(func, use.scope) if func is not None else None
                    if k is None or k.tag != "lib":
                        return True
                func = use.node.child_by_field_name("function")
                if func is not None and text(func).split(".")[-1] in ATTRIBUTE_DICTS:
                    return True
            for use in fs.attributes:
                if text(use.node) == "__dict__":
                    return True
        return False

    @cached_property
    def _dynamic_attributes(self) -> bool:
        """getattr/setattr/hasattr with a computed name on a repo (or unknown) object."""
        for fs in self.p.files.values():
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                if func is None or func.type != "identifier":
                    continue
                if text(func) not in ("getattr", "setattr", "hasattr", "delattr"):
                    continue
                args = use.node.child_by_field_name("arguments")
                items = [a for a in args.named_children] if args is not None else []
                if len(items) < 2 or items[1].type == "string":
                    continue
                if self.kinds.of(items[0], use.scope).tag == "lib":
                    continue
                return True
        return False

    @cached_property
    def _dynamic_modules(self) -> bool:
        for fs in self.p.files.values():
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                if func is not None and text(func).split(".")[-1] in (
                    "import_module",
                    "__import__",
                ):
                    return True
        return False


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def _is_alias(site: Node) -> bool:
    parent = site.parent
    return (
        parent is not None
        and parent.type == "aliased_import"
        and parent.child_by_field_name("alias") is not None
        and parent.child_by_field_name("alias").start_byte == site.start_byte
    )


def _dest_of(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _string_content(node: Node) -> str:
    return "".join(text(c) for c in node.named_children if c.type == "string_content")


def _has_interpolation(node: Node) -> bool:
    return any(c.type == "interpolation" for c in node.named_children)
