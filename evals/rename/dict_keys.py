"""Keys a dict spells in the code where the rewrite does not follow them: `dict(dim=48)`,
`{"dim": 48}`, through the names bound to them (a dict passed with ** to the repo's own
call names its parameters so)."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Scope, lookup
from torch_investigate.evals.rename.resolve import string_content
from torch_investigate.tools.code.syntax import text


def literal_keys(node: Node | None, scope: Scope, depth: int = 0) -> set[str]:
    """Keys a dict passed with ** spells in the code: `dict(dim=48)`, `{"dim": 48}`,
    followed through the names bound to them."""
    if node is None or depth > 3:
        return set()
    if node.type == "identifier":
        b = lookup(scope, text(node))
        out: set[str] = set()
        for v in b.values if b is not None else []:
            if v.how == "expr" and not v.index:
                out |= literal_keys(v.node, b.scope, depth + 1)
        return out
    if node.type == "dictionary":
        return {
            string_content(key)
            for pair in node.named_children
            if pair.type == "pair"
            and (key := pair.child_by_field_name("key")) is not None
            and key.type == "string"
        }
    if node.type == "call":
        func = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if func is None or args is None or text(func) != "dict":
            return set()
        out = set()
        for a in args.named_children:
            if a.type == "keyword_argument" and (k := a.child_by_field_name("name")) is not None:
                out.add(text(k))
            elif a.type in ("dictionary", "identifier"):
                out |= literal_keys(a, scope, depth + 1)
        return out
    return set()
