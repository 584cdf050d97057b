"""Name bindings per scope: what each local name, parameter or `self.attr` is assigned.

A binding keeps the target and the value expression as nodes; the flow analysis turns
them into values. Nested functions and classes are their own scopes and are not walked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node, Query, QueryCursor

from torch_investigate.tools.code import syntax as sx

BindingKind = Literal[
    "assign",  # x = value
    "augassign",  # x += value (value is the augmented_assignment node)
    "for",  # for x in value (value is the iterable)
    "with",  # with value as x
    "param",  # a function parameter (value: its default, if any)
    "def",  # def x / class x (value is the definition node)
    "import",  # import ... as x (value is None; the unit's import map knows)
]


@dataclass(frozen=True)
class Binding:
    name: str
    kind: BindingKind
    target: Node  # the identifier (or attribute) that is bound
    value: Node | None
    index: tuple[int, ...] = ()  # position inside a tuple target: `a, (b, c) = ...` -> c: (1, 1)
    scope: Node | None = None  # the function whose body holds it (None: module / class body)

    @property
    def statement(self) -> Node:
        return sx.statement_of(self.target)


def _pattern_targets(
    pattern: Node, prefix: tuple[int, ...] = ()
) -> list[tuple[Node, tuple[int, ...]]]:
    """Leaf targets of an assignment pattern with their tuple positions."""
    t = pattern.type
    if t in ("identifier", "attribute", "subscript"):
        return [(pattern, prefix)]
    if t in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"):
        out = []
        for i, child in enumerate(c for c in pattern.named_children if c.type != "comment"):
            if child.type in ("list_splat_pattern", "list_splat"):
                inner = child.named_children[0] if child.named_children else None
                if inner is not None:
                    out += [(n, ()) for n, _ in _pattern_targets(inner)]
                continue
            out += _pattern_targets(child, (*prefix, i))
        return out
    if t in ("parenthesized_expression", "as_pattern_target") and pattern.named_children:
        return _pattern_targets(pattern.named_children[0], prefix)
    return []


def _assignment_parts(node: Node) -> tuple[list[Node], Node | None]:
    """(targets, value) of `a = b = value`."""
    targets: list[Node] = []
    value: Node | None = node
    while value is not None and value.type == "assignment":
        left = value.child_by_field_name("left")
        if left is not None:
            targets.append(left)
        value = value.child_by_field_name("right")
    return targets, value


def statement_bindings(node: Node, scope: Node | None) -> list[Binding]:
    """Bindings a single node introduces (assignment, for, with, walrus, def...)."""
    t = node.type
    out: list[Binding] = []
    if t == "assignment":
        if node.parent is not None and node.parent.type == "assignment":
            return out
        targets, value = _assignment_parts(node)
        if value is None:  # `x: int` declares, binds nothing
            return out
        for target in targets:
            for leaf, index in _pattern_targets(target):
                out.append(Binding(_target_name(leaf), "assign", leaf, value, index, scope))
    elif t == "augmented_assignment":
        left = node.child_by_field_name("left")
        if left is not None and left.type in ("identifier", "attribute"):
            out.append(Binding(_target_name(left), "augassign", left, node, (), scope))
    elif t in ("for_statement", "for_in_clause"):
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None:
            for leaf, index in _pattern_targets(left):
                out.append(Binding(_target_name(leaf), "for", leaf, right, index, scope))
    elif t == "with_item":
        value = node.child_by_field_name("value")
        if value is not None and value.type == "as_pattern":
            alias = value.child_by_field_name("alias")
            expr = value.named_children[0] if value.named_children else None
            if alias is not None:
                for leaf, index in _pattern_targets(alias):
                    out.append(Binding(_target_name(leaf), "with", leaf, expr, index, scope))
    elif t == "named_expression":
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None:
            out.append(Binding(sx.text(name), "assign", name, value, (), scope))
    elif t in ("function_definition", "class_definition"):
        name = node.child_by_field_name("name")
        if name is not None:
            out.append(Binding(sx.text(name), "def", name, node, (), scope))
    return out


def _target_name(target: Node) -> str:
    return sx.flat(target)


_BINDING_NODES = Query(
    sx.LANGUAGE,
    """
    (assignment) @n
    (augmented_assignment) @n
    (for_statement) @n
    (for_in_clause) @n
    (with_item) @n
    (named_expression) @n
    (function_definition) @n
    (class_definition) @n
    """,
)


@dataclass
class FileScopes:
    """Every binding of one file, bucketed by the scope it belongs to; built with one
    tree-sitter query (a Python walk per function costs several times more)."""

    module: dict[str, list[Binding]] = field(default_factory=dict)
    functions: dict[int, dict[str, list[Binding]]] = field(default_factory=dict)  # def id ->
    classes: dict[int, dict[str, list[Binding]]] = field(default_factory=dict)  # class id ->

    def of_function(self, fn: Node | None) -> dict[str, list[Binding]]:
        """Name -> bindings in source order (parameters first); the module's for None."""
        if fn is None:
            return self.module
        return self.functions.get(fn.id, {})

    def class_attributes(self, class_node: Node) -> dict[str, list[Binding]]:
        """attr -> `self.attr = ...` bindings in the class's methods and class-body names."""
        return self.classes.get(class_node.id, {})


def build_file_scopes(root: Node) -> FileScopes:
    scopes = FileScopes()
    captured = QueryCursor(_BINDING_NODES).captures(root).get("n", [])
    for node in sorted(captured, key=lambda n: n.start_byte):
        if node.type == "function_definition":
            scopes.functions.setdefault(node.id, {}).update(_parameters(node))
        owner = _owner(node)
        if owner is not None and owner.type == "class_definition":
            table = scopes.classes.setdefault(owner.id, {})
            for b in statement_bindings(node, None):
                if b.target.type == "identifier":
                    table.setdefault(b.name, []).append(b)
            continue
        bindings = statement_bindings(node, owner)
        table = scopes.module if owner is None else scopes.functions.setdefault(owner.id, {})
        for b in bindings:
            table.setdefault(b.name, []).append(b)
        if owner is not None:
            _record_self_attributes(scopes, owner, bindings)
    return scopes


def _owner(node: Node) -> Node | None:
    """The function or class whose body binds names introduced by node (lambdas and
    comprehensions bind in the enclosing function, as far as this analysis goes)."""
    for anc in sx.ancestors(node):
        if anc.type in ("function_definition", "class_definition"):
            return anc
    return None


def _parameters(fn: Node) -> dict[str, list[Binding]]:
    params = fn.child_by_field_name("parameters")
    if params is None:
        return {}
    return {
        name: [Binding(name, "param", params, sx.parameter_default(fn, name), (), fn)]
        for name in sx.parameter_names(fn)
    }


def _record_self_attributes(scopes: FileScopes, method: Node, bindings: list[Binding]) -> None:
    """`self.fc = ...` inside a method of class C is an attribute binding of C."""
    parent = method.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    cls = parent.parent if parent is not None and parent.type == "block" else None
    if cls is None or cls.type != "class_definition":
        return
    params = sx.parameter_names(method)
    if not params:
        return
    for b in bindings:
        target = b.target
        if target.type != "attribute":
            continue
        obj = target.child_by_field_name("object")
        attr = target.child_by_field_name("attribute")
        if (
            obj is not None
            and attr is not None
            and obj.type == "identifier"
            and sx.text(obj) == params[0]
        ):
            name = sx.text(attr)
            scopes.classes.setdefault(cls.id, {}).setdefault(name, []).append(
                Binding(name, b.kind, b.target, b.value, b.index, method)
            )


def class_methods(class_node: Node) -> list[Node]:
    body = class_node.child_by_field_name("body")
    if body is None:
        return []
    methods = []
    for child in body.named_children:
        node = child
        if node.type == "decorated_definition":
            node = node.child_by_field_name("definition") or node.named_children[-1]
        if node.type == "function_definition":
            methods.append(node)
    return methods
