"""The records of Python's scopes: a scope and the bindings in it, what each binding was
bound to, every use of a name sorted by the role it plays (a name, an attribute, a keyword
argument, a name imported from a module, a module path, a call, a string that may spell a
name), and the lookup of a name by the language's rules (scopes.py builds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from torch_investigate.tools.code.syntax import text

ScopeKind = Literal["module", "class", "function", "lambda", "comprehension"]
BindingRole = Literal["variable", "param", "def", "class", "import"]
# how a binding got its value, for kind inference: `x = v`, `for x in v`, `with v as x`
ValueHow = Literal["expr", "iter", "with", "unpack", "augassign", "except"]


@dataclass(eq=False)
class ImportTarget:
    """What an import binds: a repo file (`file`, with `name` when a name is taken from
    it) or a library's dotted path (`library`)."""

    file: str | None = None
    name: str | None = None
    library: str | None = None


@dataclass(eq=False)
class Value:
    how: ValueHow
    node: Node | None
    index: tuple[int, ...] = ()  # position in a tuple target


@dataclass(eq=False)
class Binding:
    name: str
    scope: Scope
    role: BindingRole
    sites: list[Node] = field(default_factory=list)  # the identifiers that bind it
    values: list[Value] = field(default_factory=list)
    imports: list[ImportTarget] = field(default_factory=list)
    definition: Node | None = None  # def/class node, or the function of a parameter
    annotation: Node | None = None  # a parameter's annotation

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.scope.file, self.scope.node.start_byte, self.name)


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    node: Node
    parent: Scope | None
    file: str
    bindings: dict[str, Binding] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)
    star_imports: list[ImportTarget] = field(default_factory=list)
    dynamic: bool = False  # calls locals()/vars()/eval/exec: its names stay

    def bind(self, name: str, role: BindingRole, site: Node | None) -> Binding:
        b = self.bindings.get(name)
        if b is None:
            b = self.bindings[name] = Binding(name=name, scope=self, role=role)
        elif _ROLE_RANK[role] > _ROLE_RANK[b.role]:
            b.role = role
        if site is not None:
            b.sites.append(site)
        return b

    @property
    def function(self) -> Scope | None:
        """The nearest enclosing function/lambda scope (a walrus binds there)."""
        s: Scope | None = self
        while s is not None and s.kind == "comprehension":
            s = s.parent
        return s


_ROLE_RANK = {"variable": 0, "import": 1, "param": 2, "def": 3, "class": 4}


@dataclass(eq=False)
class NameUse:
    node: Node
    scope: Scope
    binding: Binding | None = None  # None: a builtin or unresolved


@dataclass(eq=False)
class AttrUse:
    node: Node  # the attribute identifier
    obj: Node  # the expression before the dot
    scope: Scope
    store: bool = False


@dataclass(eq=False)
class KeywordUse:
    node: Node  # the keyword's identifier
    call: Node  # the call node
    scope: Scope


@dataclass(eq=False)
class ImportNameUse:
    """`n` in `from m import n [as k]`: an attribute of module m (a repo file, or None)."""

    node: Node
    module: str | None
    scope: Scope


@dataclass(eq=False)
class ModulePathUse:
    """One component of a dotted module path in an import: `b` in `import a.b`."""

    node: Node
    module: str | None  # the repo file that prefix names (None: a library)
    scope: Scope


@dataclass(eq=False)
class CallUse:
    node: Node
    scope: Scope


@dataclass(eq=False)
class StringUse:
    node: Node  # the string node (not an f-string with interpolations)
    content: str
    scope: Scope


@dataclass
class FileScopes:
    file: str
    module: Scope
    scopes: list[Scope] = field(default_factory=list)
    names: list[NameUse] = field(default_factory=list)
    attributes: list[AttrUse] = field(default_factory=list)
    keywords: list[KeywordUse] = field(default_factory=list)
    import_names: list[ImportNameUse] = field(default_factory=list)
    module_paths: list[ModulePathUse] = field(default_factory=list)
    strings: list[StringUse] = field(default_factory=list)
    calls: list[CallUse] = field(default_factory=list)
    # definitions: def/class node -> its scope; parameter lists -> their function scope
    scope_of: dict[int, Scope] = field(default_factory=dict)
    uses_match: bool = False  # `match` patterns are not modelled: their names stay

    def resolve(self) -> None:
        for use in self.names:
            use.binding = lookup(use.scope, text(use.node))


def lookup(scope: Scope, name: str) -> Binding | None:
    """The binding `name` denotes when used in `scope` (None: builtin or unresolved)."""
    if name in scope.declared_global:
        return module_scope(scope).bindings.get(name)
    if name in scope.bindings and name not in scope.declared_nonlocal:
        return scope.bindings[name]
    s = scope.parent
    while s is not None:
        if s.kind != "class":  # class bodies do not enclose nested scopes
            if s.kind == "module":
                return s.bindings.get(name)
            if name in s.bindings and name not in s.declared_global:
                return s.bindings[name]
            if name in s.declared_global:
                return module_scope(s).bindings.get(name)
        s = s.parent
    return None


def module_scope(scope: Scope) -> Scope:
    while scope.parent is not None:
        scope = scope.parent
    return scope
