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
cannot be resolved: an attribute of a library object or of an unknown one a library owns,
an override of a library method, a keyword to a call the renamer cannot resolve, a string
that names it where Python looks names up.
"""

from __future__ import annotations

import keyword
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Scope, lookup
from torch_investigate.evals.rename.dict_keys import literal_keys
from torch_investigate.evals.rename.library import class_attributes
from torch_investigate.evals.rename.names import NameAllocator
from torch_investigate.evals.rename.repo import Repo
from torch_investigate.evals.rename.resolve import (
    CONVENTIONS,
    Group,
    Ref,
    Resolver,
    dest_of,
    dunder,
    string_content,
)
from torch_investigate.evals.rename.strings import names_in, role_of
from torch_investigate.tools.code.syntax import text

# library methods a repo overrides that only the repo's own code calls (nn.Module's
# __call__ hands forward what the caller passed): their parameters may be renamed
CALLED_BY_THE_REPO = frozenset({"forward"})
# results of these calls are a repo object's attributes as a dict
ATTRIBUTE_DICTS = frozenset({"vars", "asdict", "_asdict", "__dict__", "model_dump", "dict"})
# these yield a module's attribute names as strings (`name.startswith(cfg["train_only"])`)
NAMED = frozenset({"named_parameters", "named_modules", "named_children", "state_dict"})


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


class Planner(Resolver):
    def __init__(self, repo: Repo, commands: list[str] | None = None) -> None:
        super().__init__(repo)
        self.commands = commands or []
        self.blocked: dict[tuple[str, str], str] = {}

    # ---- the plan --------------------------------------------------------------------

    def plan(self) -> Plan:
        self.define()
        self._block()
        return self._allocate()

    # ---- collecting what the repo defines -------------------------------------------

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
        self._block_computed_options()
        self._block_options()
        for fs in self.p.files.values():
            if fs.uses_match:
                for scope in fs.scopes:
                    for name in scope.bindings:
                        self.block("attribute", name, "used in a match statement")
                        self.block("module-level", name, "used in a match statement")

    def _block_overrides(self) -> None:
        for cls in self.p.classes.values():
            bases = self.kinds.classes.library_bases(cls)
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
                if dunder(name):
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
                if dotted:
                    self._block_module_path(use.content, "named in a dotted string")
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
                        why = "a string while attributes are looked up by computed names"
                        self.block("attribute", name, why)
                        self.block("module-level", name, why)
        for cf in self.configs.values():
            for value in cf.values:
                self._block_module_path(value, "named by a config value")
                for name in names_in(value):
                    self.block("module-level", name, "named by a config value")
                    if dynamic:
                        self.block("attribute", name, "named by a config value")

    def _block_module_path(self, content: str, reason: str) -> None:
        """A string that spells a repo module's dotted path, or a name in one
        (`pkg.models.Net`, a factory's target), keeps every module on that path."""
        parts = content.split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            return
        for i in range(len(parts), 0, -1):
            file = self.repo.module_file(".".join(parts[:i]))
            if file is None:
                continue
            rest = parts[i:]
            scope = self.p.module_scope(file) if not file.endswith("/") else None
            if not rest or (len(rest) == 1 and scope is not None and rest[0] in scope.bindings):
                for part in parts[:i]:
                    self.block("module", part, reason)
            return

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
                if role not in ("key", "dictkey") or use.content not in self.config_keys:
                    continue
                if role == "dictkey":
                    # {"params": ..., "lr": ...} handed to a library: the library reads it
                    if self._dict_for_library(use.node, use.scope):
                        self.block("attribute", use.content, "a key of a dict a library reads")
                    continue
                holder = self._key_holder(use.node)
                if holder is None:
                    continue
                k = self.kinds.of(holder, use.scope)
                if k.tag == "lib":
                    self.block("attribute", use.content, "a key into a library object")
                elif k.tag != "config":
                    # group["lr"] over opt.param_groups: a config's key or a library's,
                    # the renamer cannot tell, so it keeps the spelling everywhere
                    self.block("attribute", use.content, "a key into an object of unknown type")

    def _dict_for_library(self, key: Node, scope: Scope) -> bool:
        """Whether the dict literal holding `key` is passed (directly or inside lists,
        tuples and dicts) to a call that is not the repo's."""
        node = key.parent.parent if key.parent is not None else None  # pair -> dictionary
        while node is not None and node.type in ("dictionary", "list", "tuple", "pair"):
            node = node.parent
        if node is None or node.type not in ("argument_list", "keyword_argument"):
            return False
        call = node.parent if node.type == "argument_list" else node.parent.parent
        func = call.child_by_field_name("function") if call is not None else None
        if call is None or call.type != "call" or func is None:
            return False
        return self.kinds.of(func, scope).tag not in ("function", "class", "instance")

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
                # `Net(**dict(dim=48))` to the repo's own call: the dict spells parameter
                # names as keys the rewrite does not follow, so they keep their names
                own = callee is not None and callee.tag in ("function", "class", "instance")
                keys = literal_keys if own else self._splat_keys
                why = (
                    "a key of a dict passed with ** to the repo's own call"
                    if own
                    else "passed with ** to a library call"
                )
                for splat in splats:
                    inner = splat.named_children[0] if splat.named_children else None
                    for key in keys(inner, use.scope):
                        self.block("attribute", key, why)

    def _block_computed_options(self) -> None:
        """`ap.add_argument("--" + k.replace("_", "-"))` over `vars(cfg)`: options spelled
        from a dataclass's field names, which the command line then writes; the fields
        keep their names (which dataclass it is, the renamer does not follow)."""
        computed = False
        for fs in self.p.files.values():
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                args = use.node.child_by_field_name("arguments")
                if func is None or args is None or not text(func).endswith("add_argument"):
                    continue
                first = args.named_children[0] if args.named_children else None
                if first is None or first.type == "keyword_argument":
                    continue
                if first.type != "string" or any(c.type == "interpolation" for c in first.children):
                    computed = True
        if not computed:
            return
        for cls in self.p.classes.values():
            if cls.is_dataclass:
                for name in cls.members:
                    self.block("attribute", name, "a dataclass field while options are computed")

    def _splat_keys(self, node: Node | None, scope: Scope, depth: int = 0) -> set[str]:
        """Keys a dict passed with ** may hold, when it is a config section or a
        namespace turned into a dict."""
        if node is None or depth > 3:
            return set()
        if node.type == "identifier":
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
                return self._section_keys(string_content(key))
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
            | {s for s in self.local if s not in CONVENTIONS and not dunder(s)}
        )
        for spelling in sorted(wanted):
            what = kinds_of.get(spelling, set())
            prefix = "C" if "class" in what else ("f" if what & {"function", "method"} else "v")
            plan.names[spelling] = names.new(prefix)
        for opt in self.options:
            if opt.dest in plan.attributes:
                for _, option in opt.options:
                    if option.startswith("--") and dest_of(option) == opt.dest:
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
        """getattr/setattr/hasattr with a computed name on a repo (or unknown) object, or
        attribute names read as strings (`model.named_parameters()`)."""
        for fs in self.p.files.values():
            for use in fs.calls:
                func = use.node.child_by_field_name("function")
                if func is not None and text(func).split(".")[-1] in NAMED:
                    return True
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
