"""The collection a walk really goes over, when the name walked is only a copy of a
function's parameter made in the parameter's own order: `by_id = {r["id"]: r for r in
records}` (or `[... for r in records]`) and then `for i in sorted(by_id)` walks `records`,
sorted. Two helpers given the same collection then walk one collection, whatever each
calls its copy; the run decides whether their two orders misalign the arrays."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx

# comprehensions that keep the order of what they walk (a set's order is its own)
ORDERED_COPIES = frozenset({"dictionary_comprehension", "list_comprehension"})


def parameter_copied(fn: Node | None, name: str, before: Node) -> str | None:
    """The parameter of `fn` that `name` is an unfiltered, order-keeping copy of, bound
    once in `fn` before `before`; None when it is no such copy."""
    if fn is None:
        return None
    params = sx.parameter_names(fn)
    if name in params:
        return None
    bound = []
    for node in sx.descendants(fn):
        if node.type in ("assignment", "augmented_assignment"):
            left = node.child_by_field_name("left")
            if left is not None and name in sx.identifiers_in(left):
                bound.append(node)
    if len(bound) != 1 or bound[0].type != "assignment" or bound[0].start_byte > before.start_byte:
        return None
    left, right = bound[0].child_by_field_name("left"), bound[0].child_by_field_name("right")
    if left is None or left.type != "identifier" or right is None:
        return None
    if right.type not in ORDERED_COPIES:
        return None
    clauses = [c for c in right.named_children if c.type in ("for_in_clause", "if_clause")]
    if len(clauses) != 1 or clauses[0].type != "for_in_clause":
        return None  # filtered or nested: not one row per member
    walked = clauses[0].child_by_field_name("right")
    if walked is None or walked.type != "identifier" or sx.text(walked) not in params:
        return None
    return sx.text(walked)
