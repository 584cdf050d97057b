"""Small helpers over tree-sitter Python nodes: text, lines, call arguments, walking.

Everything here is pure and cheap; the index and the checks share it.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter_python
from tree_sitter import Language, Node, Parser

LANGUAGE = Language(tree_sitter_python.language())

SCOPE_TYPES = frozenset({"function_definition", "class_definition", "lambda"})
LOOP_TYPES = frozenset({"for_statement", "while_statement"})
COMPREHENSION_TYPES = frozenset(
    {"list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"}
)


def new_parser() -> Parser:
    # Parsers keep state between calls; one per build keeps builds independent.
    return Parser(LANGUAGE)


def text(node: Node) -> str:
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


def flat(node: Node) -> str:
    """The node's text on one line, whitespace collapsed: for messages and matching."""
    return " ".join(text(node).split())


def line(node: Node) -> int:
    return node.start_point.row + 1


def end_line(node: Node) -> int:
    return node.end_point.row + 1


def dotted(node: Node | None) -> str | None:
    """`a.b.c` for an identifier/attribute chain, else None (calls, subscripts...)."""
    if node is None:
        return None
    if node.type == "identifier":
        return text(node)
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        base = dotted(obj)
        if base is None or attr is None:
            return None
        return f"{base}.{text(attr)}"
    return None


def call_function(call: Node) -> Node | None:
    return call.child_by_field_name("function")


def method_name(call: Node) -> str | None:
    """`step` for `opt.step()`; None when the callee is not an attribute."""
    fn = call_function(call)
    if fn is None or fn.type != "attribute":
        return None
    attr = fn.child_by_field_name("attribute")
    return text(attr) if attr is not None else None


def receiver(call: Node) -> Node | None:
    """`opt` for `opt.step()`; None when the callee is not an attribute."""
    fn = call_function(call)
    if fn is None or fn.type != "attribute":
        return None
    return fn.child_by_field_name("object")


def call_args(call: Node) -> tuple[list[Node], dict[str, Node]]:
    """Positional argument nodes and keyword -> value nodes (splats are positional)."""
    positional: list[Node] = []
    keywords: dict[str, Node] = {}
    args = call.child_by_field_name("arguments")
    if args is None:
        return positional, keywords
    if args.type == "generator_expression":  # f(x for x in y)
        return [args], keywords
    for child in args.named_children:
        if child.type == "keyword_argument":
            name = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if name is not None and value is not None:
                keywords[text(name)] = value
        elif child.type != "comment":
            positional.append(child)
    return positional, keywords


def argument(call: Node, index: int | None, name: str | None = None) -> Node | None:
    """The argument passed at position `index` or as keyword `name`."""
    positional, keywords = call_args(call)
    if name is not None and name in keywords:
        return keywords[name]
    if index is not None and index < len(positional):
        node = positional[index]
        if node.type not in ("list_splat", "dictionary_splat"):
            return node
    return None


def number(node: Node | None) -> float | None:
    """The value of a numeric literal (`1e-3`, `-2`, `0.5`), else None."""
    if node is None:
        return None
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return number(node.named_children[0])
    if node.type == "unary_operator":
        inner = node.child_by_field_name("argument")
        value = number(inner)
        op = node.child_by_field_name("operator")
        if value is not None and op is not None and text(op) == "-":
            return -value
        return value
    if node.type in ("integer", "float"):
        raw = text(node).replace("_", "").rstrip("jJlL")
        try:
            return float(int(raw, 0)) if node.type == "integer" else float(raw)
        except ValueError:
            return None
    return None


def string_value(node: Node | None) -> str | None:
    """The content of a plain string literal, else None."""
    if node is None or node.type != "string":
        return None
    parts = [c for c in node.named_children if c.type == "string_content"]
    if any(c.type == "interpolation" for c in node.named_children):
        return None
    return "".join(text(p) for p in parts)


def ancestors(node: Node) -> Iterator[Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def enclosing_scope(node: Node) -> Node | None:
    """The nearest enclosing function/class/lambda node, None at module level."""
    for anc in ancestors(node):
        if anc.type in SCOPE_TYPES:
            return anc
    return None


def enclosing_function(node: Node) -> Node | None:
    for anc in ancestors(node):
        if anc.type == "function_definition":
            return anc
        if anc.type == "class_definition":
            return None
    return None


def statement_of(node: Node) -> Node:
    """The statement that contains node: the ancestor whose parent is a block/module."""
    current = node
    while current.parent is not None and current.parent.type not in ("block", "module"):
        current = current.parent
    return current


def descendants(node: Node, *, into_scopes: bool = False) -> Iterator[Node]:
    """Pre-order descendants of node (node excluded). Nested functions, classes and
    lambdas are not entered unless `into_scopes`, since their code runs elsewhere."""
    stack = list(reversed(node.children))
    while stack:
        current = stack.pop()
        yield current
        if not into_scopes and current.type in SCOPE_TYPES:
            continue
        stack.extend(reversed(current.children))


def calls_in(node: Node, *, into_scopes: bool = False) -> Iterator[Node]:
    if node.type == "call":
        yield node
    for d in descendants(node, into_scopes=into_scopes):
        if d.type == "call":
            yield d


def contains(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def function_body(fn: Node) -> Node | None:
    return fn.child_by_field_name("body")


def function_name(fn: Node) -> str:
    name = fn.child_by_field_name("name")
    return text(name) if name is not None else "<lambda>"


def parameter_names(fn: Node) -> list[str]:
    """Parameter names in order, `self` included, splats without their stars."""
    params = fn.child_by_field_name("parameters")
    names: list[str] = []
    if params is None:
        return names
    for p in params.named_children:
        if p.type == "identifier":
            names.append(text(p))
        elif p.type in ("default_parameter", "typed_default_parameter"):
            n = p.child_by_field_name("name")
            if n is not None:
                names.append(text(n))
        elif p.type == "typed_parameter":
            ident = next((c for c in p.named_children if c.type == "identifier"), None)
            if ident is not None:
                names.append(text(ident))
            else:
                inner = next(
                    (
                        c
                        for c in p.named_children
                        if c.type in ("list_splat_pattern", "dictionary_splat_pattern")
                    ),
                    None,
                )
                if inner is not None:
                    names.append(text(inner).lstrip("*"))
        elif p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            names.append(text(p).lstrip("*"))
    return names


def parameter_default(fn: Node, name: str) -> Node | None:
    params = fn.child_by_field_name("parameters")
    if params is None:
        return None
    for p in params.named_children:
        if p.type in ("default_parameter", "typed_default_parameter"):
            n = p.child_by_field_name("name")
            if n is not None and text(n) == name:
                return p.child_by_field_name("value")
    return None


def parameter_annotation(fn: Node, name: str) -> Node | None:
    """The type annotation of parameter `name` (`model: Net` -> the `Net` node)."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        return None
    for p in params.named_children:
        if p.type not in ("typed_parameter", "typed_default_parameter"):
            continue
        ident = p.child_by_field_name("name") or next(
            (c for c in p.named_children if c.type == "identifier"), None
        )
        if ident is not None and text(ident) == name:
            annotation = p.child_by_field_name("type")
            return (
                annotation.named_children[0] if annotation and annotation.named_children else None
            )
    return None


def decorators_of(definition: Node) -> list[Node]:
    """Decorator expressions of a function/class definition (outermost first)."""
    parent = definition.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    return [
        c.named_children[0]
        for c in parent.named_children
        if c.type == "decorator" and c.named_children
    ]


def definition_start(definition: Node) -> Node:
    """The decorated_definition wrapper when there is one, so ranges include decorators."""
    parent = definition.parent
    if parent is not None and parent.type == "decorated_definition":
        return parent
    return definition


def identifiers_in(node: Node) -> set[str]:
    """Names read anywhere in node (identifiers, not attribute names)."""
    found: set[str] = set()
    nodes = [node, *descendants(node, into_scopes=True)]
    for n in nodes:
        if n.type == "identifier":
            parent = n.parent
            if (
                parent is not None
                and parent.type == "attribute"
                and parent.child_by_field_name("attribute") == n
            ):
                continue
            if parent is not None and parent.type == "keyword_argument":
                if parent.child_by_field_name("name") == n:
                    continue
            found.add(text(n))
    return found
