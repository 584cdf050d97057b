"""Edits several fixers make: remove the statement that introduced a defect, unwrap a
call around its operand, drop or set a keyword, move a statement.

They decide from the syntax at the place a finding names, never from a variable's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding

ASSIGNMENTS = frozenset({"assignment", "augmented_assignment"})
LITERALS = frozenset({"true", "false", "none", "integer", "float", "string"})


def assignment_of(stmt: Node) -> Node | None:
    """The assignment an expression statement holds (`x = f(x)`), else None."""
    if stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return None
    inner = stmt.named_children[0]
    return inner if inner.type in ASSIGNMENTS else None


def _reads(node: Node, target: str) -> bool:
    """node reads the value `target` names (an identifier or an attribute chain)."""
    for n in [node, *sx.descendants(node, into_scopes=True)]:
        if n.type in ("identifier", "attribute") and sx.text(n) == target:
            return True
    return False


def rebound(stmt: Node) -> str | None:
    """`x` for `x = f(x)` or `x *= 0`: a statement that only transforms a value already
    bound (removing it leaves the earlier value in place), else None."""
    assign = assignment_of(stmt)
    if assign is None:
        return None
    left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
    if left is None or right is None or left.type not in ("identifier", "attribute"):
        return None
    target = sx.text(left)
    if assign.type == "augmented_assignment" or _reads(right, target):
        return target
    return None


def mutates(stmt: Node) -> str | None:
    """The object a statement changes in place (`x[0] = nan`, `layer.requires_grad_(False)`,
    `nn.init.constant_(w, 0)`), else None: removing it leaves the object as it was."""
    assign = assignment_of(stmt)
    if assign is not None:
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None:
            return None
        # `x[0] = nan` changes x; `p.requires_grad = False` changes p's state, while
        # `self.fc = nn.Linear(...)` binds a new attribute: only a constant counts
        constant = right.type in LITERALS or sx.number(right) is not None
        if left.type == "subscript" or (left.type == "attribute" and constant):
            obj = left.child_by_field_name("value") or left.child_by_field_name("object")
            return sx.text(obj) if obj is not None else None
        return None
    if stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return None
    call = stmt.named_children[0]
    if call.type != "call":
        return None
    fn = sx.call_function(call)
    name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
    if name.endswith("_") and not name.endswith("__"):
        recv = sx.receiver(call)
        first = sx.argument(call, 0)
        target = (
            recv if recv is not None and not sx.text(recv).startswith(("nn.", "torch.")) else first
        )
        return sx.text(target) if target is not None else name
    return None


def removal(ctx: FixContext, file: str, stmt: Node, what: str) -> Candidate:
    """Delete the statement (the loop or `with` around it when it is all they hold)."""
    whole = ctx.source.whole(stmt)
    return Candidate(
        f"removed `{sx.flat(whole)[:120]}` ({at(file, whole)}): {what}",
        (ctx.source.delete(file, whole, anchor=True),),
    )


def remove_transform(
    ctx: FixContext, finding: Finding, what: str, *, mutations: bool = True
) -> Iterator[Candidate]:
    """At each place the finding names, the statement that rebinds a value from itself or
    changes it in place: removed, so the value is what it was before."""
    for file, line in ctx.places(finding):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        if rebound(stmt) is not None or (mutations and mutates(stmt) is not None):
            yield removal(ctx, file, stmt, what)


def drop_kwarg(
    src: Source, file: str, call: Node, name: str, *, anchor: bool = True
) -> Edit | None:
    """Remove `name=...` from call's arguments, with the comma that separates it."""
    args = call.child_by_field_name("arguments")
    if args is None:
        return None
    kids = list(args.children)
    for i, kid in enumerate(kids):
        if kid.type != "keyword_argument":
            continue
        key = kid.child_by_field_name("name")
        if key is None or sx.text(key) != name:
            continue
        start, end = kid.start_byte, kid.end_byte
        if i > 0 and kids[i - 1].type == ",":  # `f(a, name=v)`: the comma before it
            start = kids[i - 1].start_byte
        elif i + 1 < len(kids) and kids[i + 1].type == ",":  # `f(name=v, b)`
            end = kids[i + 2].start_byte if i + 2 < len(kids) else kids[i + 1].end_byte
        return Edit(file, start, end, "", 0 if anchor else None)
    return None


def unwrap_call(call: Node, modules: set[str] | frozenset[str] = frozenset()) -> Node | None:
    """The operand an elementwise wrapper acts on: `x` in `F.softmax(x, dim=1)`,
    `torch.sigmoid(x)`, `x.softmax(1)`, `self.fc(x).sigmoid()`. `modules`: the names the
    file binds to modules by import (`F`, `torch`, `nn`): a call through one of them is
    the functional form, whose operand is its first argument."""
    recv = sx.receiver(call)
    positional, _ = sx.call_args(call)
    if recv is not None and sx.dotted(recv) is not None:
        head = sx.text(recv).split(".")[0]
        if head in modules or head == "torch":
            return positional[0] if positional else None
    if recv is not None:
        return recv
    return positional[0] if positional else None


def module_names(src: Source, file: str) -> set[str]:
    """The local names a file binds by import (`F`, `nn`, `torch`, `np`)."""
    return set(src.unit(file).imports)


def move_after(
    ctx: FixContext, file: str, stmt: Node, after: Node, what: str, *, indent: str | None = None
) -> Candidate:
    """Move stmt to right after `after` (at after's indentation unless told otherwise)."""
    src = ctx.source
    code = src.code(file, stmt)
    return Candidate(
        f"moved `{sx.flat(stmt)[:80]}` from {at(file, stmt)} to after {at(file, after)}: {what}",
        (
            src.delete(file, stmt),
            src.insert_after(file, after, code, anchor=True, indent=indent),
        ),
    )


def drop_argument(ctx: FixContext, file: str, node: Node, what: str) -> Candidate:
    """Remove one element of an argument list (`nn.Softmax(dim=1)` as a Sequential's
    last layer) with its separating comma."""
    parent = node.parent
    assert parent is not None
    kids = list(parent.children)
    i = next(k for k, kid in enumerate(kids) if kid.id == node.id)
    start, end = node.start_byte, node.end_byte
    if i > 0 and kids[i - 1].type == ",":
        start = kids[i - 1].start_byte
    elif i + 1 < len(kids) and kids[i + 1].type == ",":
        end = kids[i + 1].end_byte
    owner = parent.parent or parent
    return Candidate(
        f"removed `{sx.flat(node)}` from `{sx.flat(owner)[:80]}` ({at(file, node)}): {what}",
        (Edit(file, start, end, "", 0),),
    )


def _names_read(stmt: Node) -> set[str]:
    """The plain names a statement reads (not the functions it calls)."""
    names = set()
    for n in sx.descendants(stmt, into_scopes=False):
        if n.type != "identifier" or n.parent is None:
            continue
        p = n.parent
        if p.type == "call" and p.child_by_field_name("function") == n:
            continue
        if p.type == "attribute" and p.child_by_field_name("attribute") == n:
            continue
        if p.type == "keyword_argument" and p.child_by_field_name("name") == n:
            continue
        names.add(sx.text(n))
    return names


def upstream_transforms(
    ctx: FixContext,
    finding: Finding,
    what: str,
    keep: Callable[[Node], bool] | None = None,
    *,
    any_value: bool = False,
) -> Iterator[Candidate]:
    """Statements before each of the finding's places, in the same function (or module),
    that rebind or change in place a value the place reads (`any_value`: any value, when
    `keep` alone identifies the statement), nearest first: the runtime saw the corrupted
    value where it was used; the edit removes where it was corrupted."""
    for file, line in ctx.places(finding):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        names = _names_read(stmt)
        scope = sx.enclosing_function(stmt) or ctx.source.unit(file).tree.root_node
        earlier = [
            n
            for n in sx.descendants(scope)
            if n.parent is not None
            and n.parent.type in ("block", "module")
            and n.end_byte <= stmt.start_byte
            and n.type == "expression_statement"
        ]
        for prior in reversed(earlier):
            target = rebound(prior) or mutates(prior)
            if target is None or not (any_value or target.split(".")[0].split("[")[0] in names):
                continue
            if keep is None or keep(prior):
                yield removal(ctx, file, prior, what)
