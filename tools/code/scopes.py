"""Name bindings per scope: what each local name, parameter or `self.attr` is assigned.

A binding keeps the target and the value expression as nodes; the flow analysis turns
them into values. Nested functions and classes are their own scopes and are not walked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tree_sitter import Node

from tools.code import syntax as sx

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


def scope_bindings(scope: Node | None, root: Node) -> dict[str, list[Binding]]:
    """Name -> bindings (in source order) in a function body, or in the module when scope
    is None (root is then the module node). Attribute targets are keyed by their text
    (`self.fc`, `model.fc`)."""
    table: dict[str, list[Binding]] = {}
    if scope is not None:
        for name in sx.parameter_names(scope):
            default = sx.parameter_default(scope, name)
            params = scope.child_by_field_name("parameters")
            assert params is not None
            table.setdefault(name, []).append(Binding(name, "param", params, default, (), scope))
        body = sx.function_body(scope)
        walk_root = body if body is not None else scope
    else:
        walk_root = root
    for node in sx.descendants(walk_root):
        for b in statement_bindings(node, scope):
            table.setdefault(b.name, []).append(b)
    return table


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


def class_attribute_bindings(class_node: Node) -> dict[str, list[Binding]]:
    """attr -> bindings of `self.attr = ...` in any method, and class-body assignments."""
    table: dict[str, list[Binding]] = {}
    body = class_node.child_by_field_name("body")
    if body is None:
        return table
    for child in body.named_children:
        if child.type == "expression_statement":
            for b in (
                statement_bindings(child.named_children[0], None) if child.named_children else []
            ):
                if b.target.type == "identifier":
                    table.setdefault(b.name, []).append(b)
    for method in class_methods(class_node):
        params = sx.parameter_names(method)
        if not params:
            continue
        self_name = params[0]
        body_node = sx.function_body(method)
        if body_node is None:
            continue
        for node in sx.descendants(body_node):
            for b in statement_bindings(node, method):
                target = b.target
                if target.type != "attribute":
                    continue
                obj = target.child_by_field_name("object")
                attr = target.child_by_field_name("attribute")
                if obj is not None and attr is not None and obj.type == "identifier":
                    if sx.text(obj) == self_name:
                        table.setdefault(sx.text(attr), []).append(
                            Binding(sx.text(attr), b.kind, b.target, b.value, b.index, method)
                        )
    return table
