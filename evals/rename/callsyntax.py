"""Syntax questions the kind inference asks of a function or a call: the values its
return statements give, whether it yields, which argument a call passes for a parameter,
whether a name node is one of a binding's sites."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Binding
from torch_investigate.tools.code.syntax import text


def is_site(node: Node, b: Binding) -> bool:
    return any(s.start_byte == node.start_byte and s.end_byte == node.end_byte for s in b.sites)


def argument_for(call: Node, position: int, name: str, kind: str) -> Node | None:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return None
    positional = []
    for a in args.named_children:
        if a.type == "keyword_argument":
            n = a.child_by_field_name("name")
            if n is not None and text(n) == name:
                return a.child_by_field_name("value")
        elif a.type in ("list_splat", "dictionary_splat"):
            return None
        elif a.type != "comment":
            positional.append(a)
    if kind in ("positional",) and 0 <= position < len(positional):
        return positional[position]
    return None


def returned_values(node: Node):
    """The values of the return statements of a function body (not nested ones)."""
    body = node.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("function_definition", "class_definition", "lambda"):
            continue
        if n.type == "return_statement":
            yield n.named_children[0] if n.named_children else None
            continue
        stack.extend(n.named_children)


def is_generator(node: Node) -> bool:
    body = node.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("function_definition", "class_definition", "lambda"):
            continue
        if n.type == "yield":
            return True
        stack.extend(n.named_children)
    return False
