"""The repo as one program: every file's scopes, and the functions and classes it defines
with their parameters and members (what a class body binds, what its methods assign to
`self`). Kind inference and the rename decisions read it; nothing here decides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Binding, FileScopes, Scope
from torch_investigate.evals.rename.repo import Repo
from torch_investigate.evals.rename.scopes import ImportResolver, build_scopes
from torch_investigate.tools.code.syntax import text

ParamKind = Literal["positional", "keyword_only", "varargs", "kwargs"]
MemberHow = Literal["method", "classattr", "instance"]
NodeKey = tuple[str, int, int]  # file, start byte, end byte


def node_key(file: str, node: Node) -> NodeKey:
    return (file, node.start_byte, node.end_byte)


@dataclass(eq=False)
class Param:
    name: str
    kind: ParamKind
    binding: Binding | None


@dataclass(eq=False)
class FunctionInfo:
    name: str
    file: str
    node: Node
    scope: Scope  # the function's own scope
    owner: ClassInfo | None  # a method: the class whose body defines it
    params: list[Param]
    decorators: list[str]

    @property
    def is_static(self) -> bool:
        return "staticmethod" in self.decorators

    @property
    def is_classmethod(self) -> bool:
        return "classmethod" in self.decorators

    @property
    def is_property(self) -> bool:
        return any(d == "property" or d.endswith((".setter", ".getter")) for d in self.decorators)

    def call_params(self, bound: bool) -> list[Param]:
        """The parameters a call fills: without the first (self/cls) when bound."""
        if self.owner is not None and bound and not self.is_static and self.params:
            return self.params[1:]
        return self.params

    @property
    def has_kwargs(self) -> bool:
        return any(p.kind == "kwargs" for p in self.params)


@dataclass(eq=False)
class Member:
    name: str
    how: MemberHow
    site: Node  # the identifier that binds it
    value: Node | None
    scope: Scope  # where `value` is evaluated
    function: FunctionInfo | None = None
    annotation: Node | None = None  # `x: Config = field(...)` in a class body


@dataclass(eq=False)
class ClassInfo:
    name: str
    file: str
    node: Node
    scope: Scope  # the class body
    outer: Scope
    bases: list[Node]
    decorators: list[str]
    members: dict[str, list[Member]] = field(default_factory=dict)

    @property
    def is_dataclass(self) -> bool:
        return any(d.split(".")[-1] == "dataclass" for d in self.decorators)

    def add(self, member: Member) -> None:
        self.members.setdefault(member.name, []).append(member)


@dataclass
class Program:
    repo: Repo
    files: dict[str, FileScopes]
    functions: dict[NodeKey, FunctionInfo] = field(default_factory=dict)
    classes: dict[NodeKey, ClassInfo] = field(default_factory=dict)

    @classmethod
    def build(cls, repo: Repo) -> Program:
        resolver = ImportResolver(repo)
        files = {rel: build_scopes(rel, f.root, resolver) for rel, f in repo.python.items()}
        program = cls(repo=repo, files=files)
        for fs in files.values():
            program._collect(fs)
        return program

    def function(self, file: str, node: Node) -> FunctionInfo | None:
        return self.functions.get(node_key(file, node))

    def klass(self, file: str, node: Node) -> ClassInfo | None:
        return self.classes.get(node_key(file, node))

    def module_scope(self, file: str) -> Scope | None:
        fs = self.files.get(file)
        return fs.module if fs is not None else None

    # ---- collection ------------------------------------------------------------------

    def _collect(self, fs: FileScopes) -> None:
        for scope in fs.scopes:
            if scope.kind == "class":
                info = self._class(fs, scope)
                self.classes[node_key(fs.file, scope.node)] = info
        for scope in fs.scopes:
            if scope.kind == "function":
                owner = self.classes.get(node_key(fs.file, scope.parent.node)) if (
                    scope.parent is not None and scope.parent.kind == "class"
                ) else None  # fmt: skip
                fn = self._function(fs, scope, owner)
                self.functions[node_key(fs.file, scope.node)] = fn
        for info in [c for c in self.classes.values() if c.file == fs.file]:
            for name, b in info.scope.bindings.items():
                for site in b.sites:
                    fn = None
                    how: MemberHow = "classattr"
                    if b.role == "def" and b.definition is not None:
                        fn = self.functions.get(node_key(fs.file, b.definition))
                        how = "method"
                    value = next((v.node for v in b.values if v.how == "expr"), None)
                    info.add(Member(name, how, site, value, info.scope, fn, b.annotation))
        for use in fs.attributes:
            if not use.store or use.obj.type != "identifier":
                continue
            owner_fn = self._first_param_owner(fs, use.scope, text(use.obj))
            if owner_fn is None:
                continue
            value = _assigned_value(use.node.parent)
            owner_fn.owner.add(  # type: ignore[union-attr]
                Member(text(use.node), "instance", use.node, value, use.scope, owner_fn)
            )

    def _class(self, fs: FileScopes, scope: Scope) -> ClassInfo:
        node = scope.node
        name = node.child_by_field_name("name")
        supers = node.child_by_field_name("superclasses")
        bases = [a for a in supers.named_children if a.type != "keyword_argument"] if supers else []
        return ClassInfo(
            name=text(name) if name is not None else "",
            file=fs.file,
            node=node,
            scope=scope,
            outer=scope.parent,  # type: ignore[arg-type]
            bases=bases,
            decorators=_decorators(node),
        )

    def _function(self, fs: FileScopes, scope: Scope, owner: ClassInfo | None) -> FunctionInfo:
        node = scope.node
        name = node.child_by_field_name("name")
        params: list[Param] = []
        plist = node.child_by_field_name("parameters")
        keyword_only = False
        for p in plist.named_children if plist is not None else []:
            if p.type == "keyword_separator":
                keyword_only = True
                continue
            if p.type == "positional_separator":
                continue
            ident, kind = _param_ident(p)
            if kind == "varargs":
                keyword_only = True
            if ident is None:
                continue
            if kind == "positional" and keyword_only:
                kind = "keyword_only"
            params.append(Param(text(ident), kind, scope.bindings.get(text(ident))))
        return FunctionInfo(
            name=text(name) if name is not None else "",
            file=fs.file,
            node=node,
            scope=scope,
            owner=owner,
            params=params,
            decorators=_decorators(node),
        )

    def _first_param_owner(self, fs: FileScopes, scope: Scope, name: str) -> FunctionInfo | None:
        """The method whose first parameter `name` is, seen from `scope` (a method body or
        a function nested in one that closes over `self`)."""
        s: Scope | None = scope
        while s is not None and s.kind != "module":
            if s.kind == "function":
                fn = self.functions.get(node_key(fs.file, s.node))
                if fn is not None and name in s.bindings:
                    ok = (
                        fn.owner is not None
                        and not fn.is_static
                        and fn.params
                        and fn.params[0].name == name
                    )
                    return fn if ok else None
            s = s.parent
        return None


def _decorators(node: Node) -> list[str]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    out = []
    for d in parent.named_children:
        if d.type != "decorator":
            continue
        expr = d.named_children[0] if d.named_children else None
        if expr is not None and expr.type == "call":
            expr = expr.child_by_field_name("function")
        out.append(text(expr) if expr is not None else "")
    return out


def _param_ident(p: Node) -> tuple[Node | None, ParamKind]:
    t = p.type
    if t == "identifier":
        return p, "positional"
    if t in ("default_parameter", "typed_default_parameter"):
        return p.child_by_field_name("name"), "positional"
    if t == "typed_parameter":
        inner = p.named_children[0] if p.named_children else None
        if inner is not None and inner.type == "list_splat_pattern":
            return (inner.named_children[0] if inner.named_children else None), "varargs"
        if inner is not None and inner.type == "dictionary_splat_pattern":
            return (inner.named_children[0] if inner.named_children else None), "kwargs"
        return inner, "positional"
    if t == "list_splat_pattern":
        return (p.named_children[0] if p.named_children else None), "varargs"
    if t == "dictionary_splat_pattern":
        return (p.named_children[0] if p.named_children else None), "kwargs"
    return None, "positional"


def _assigned_value(target_parent: Node | None) -> Node | None:
    """The value of `self.x = value` from the attribute node's parent."""
    node = target_parent
    if node is not None and node.type == "assignment":
        right = node.child_by_field_name("right")
        while right is not None and right.type == "assignment":
            right = right.child_by_field_name("right")
        return right
    return None
