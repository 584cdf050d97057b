"""Stage 4: the loss call, its inputs, its targets and its reduction."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import (
    drop_argument,
    drop_kwarg,
    module_names,
    rebound,
    removal,
    unwrap_call,
)
from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding

CLASS_INDEX_LOSSES = frozenset({"cross_entropy", "nll"})
FLOAT_TARGET_LOSSES = frozenset({"bce_logits", "bce", "mse", "l1", "smooth_l1", "huber"})
CASTS = {"long": ".long()", "float": ".float()"}
CAST_METHODS = frozenset({"long", "float", "double", "int", "half", "bfloat16", "to", "type"})
# the activations a loss that applies its own must not receive
PROBABILITY = {
    "softmax_before_ce": frozenset({"softmax", "log_softmax"}),
    "sigmoid_before_bce_logits": frozenset({"sigmoid"}),
}
PROBABILITY_MODULES = {
    "softmax_before_ce": frozenset({"Softmax", "LogSoftmax"}),
    "sigmoid_before_bce_logits": frozenset({"Sigmoid"}),
}


def callee_name(call: Node) -> str:
    fn = sx.call_function(call)
    return sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""


def loss_calls_at(ctx: FixContext, finding: Finding) -> list[sites.LossCall]:
    """The training loss calls on the lines the finding names (else every training loss
    call in its file, when it names none)."""
    places = set(ctx.places(finding))
    calls = sites.training_losses(ctx.source) or list(sites.loss_calls(ctx.source))
    found = [lc for lc in calls if (lc.file, sx.line(lc.node)) in places]
    if not found and ctx.trace is not None:
        lines = {
            (c.frame.file, c.frame.line)
            for c in ctx.trace.train_loss_calls()
            if c.frame is not None
        }
        found = [lc for lc in calls if (lc.file, sx.line(lc.node)) in lines]
    return found


def strip_probability(ctx: FixContext, finding: Finding, what: str) -> Iterator[Candidate]:
    """The softmax/sigmoid the run saw reach the loss, removed where it is applied: a
    functional or method call unwrapped to its operand, a module in a Sequential dropped."""
    funcs, modules = PROBABILITY[finding.category], PROBABILITY_MODULES[finding.category]
    src = ctx.source
    later: list[Candidate] = []
    for file, line in ctx.places(finding):
        for call in ctx.calls_on(file, line):
            name = callee_name(call)
            if name in funcs:
                operand = unwrap_call(call, module_names(src, file))
                if operand is not None:
                    yield Candidate(
                        f"`{sx.flat(call)[:80]}` -> `{sx.flat(operand)[:60]}` ({at(file, call)}): {what}",
                        (src.replace(file, call, sx.text(operand), anchor=True),),
                    )
            elif (
                name in modules and call.parent is not None and call.parent.type == "argument_list"
            ):
                yield drop_argument(ctx, file, call, what)
            elif sx.receiver(call) is not None and sx.text(sx.receiver(call)) == "self":
                positional, keywords = sx.call_args(call)
                if len(positional) == 1 and not keywords:  # `self.activation(h)`
                    later.append(Candidate(
                        f"`{sx.flat(call)[:80]}` -> `{sx.flat(positional[0])[:60]}` ({at(file, call)}): {what}",
                        (src.replace(file, call, sx.text(positional[0]), anchor=True),),
                    ))  # fmt: skip
    yield from later


@fixer("softmax_before_ce", "the softmax before the cross-entropy removed (the loss gets logits)")
def softmax_before_ce(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from strip_probability(ctx, f, "the loss applies its own log-softmax")


@fixer(
    "sigmoid_before_bce_logits", "the sigmoid before BCEWithLogits removed (the loss gets logits)"
)
def sigmoid_before_bce_logits(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    yield from strip_probability(ctx, f, "the loss applies its own sigmoid")


@fixer("loss_args_swapped", "the loss arguments swapped back (prediction first, target second)")
def loss_args_swapped(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for lc in loss_calls_at(ctx, f):
        positional, keywords = sx.call_args(lc.node)
        if len(positional) >= 2 and not {"input", "target"} & set(keywords):
            a, b = positional[0], positional[1]
            yield Candidate(
                f"loss arguments `({sx.flat(a)}, {sx.flat(b)})` -> `({sx.flat(b)}, {sx.flat(a)})` ({at(lc.file, lc.node)})",
                (src.replace(lc.file, a, sx.text(b), anchor=True), src.replace(lc.file, b, sx.text(a))),
            )  # fmt: skip


def _recast(ctx: FixContext, file: str, target: Node, dtype: str, why: str) -> Candidate:
    """target with its last dtype cast replaced by (or extended with) `.long()`/`.float()`."""
    src = ctx.source
    cast = CASTS[dtype]
    base = target
    while (
        base.type == "call"
        and sx.method_name(base) in CAST_METHODS
        and sx.receiver(base) is not None
    ):
        base = sx.receiver(base)  # type: ignore[assignment]
    text = src.operand(base) + cast
    return Candidate(
        f"loss target `{sx.flat(target)}` -> `{text}` ({at(file, target)}): {why}",
        (src.replace(file, target, text, anchor=True),),
    )


@fixer("loss_target_mismatch", "the loss target cast to the dtype the loss expects")
def loss_target_mismatch(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    for lc in loss_calls_at(ctx, f):
        target = lc.target
        if target is None:
            continue
        if lc.kind in CLASS_INDEX_LOSSES:
            yield _recast(ctx, lc.file, target, "long", "class-index losses take integer targets")
        elif lc.kind in FLOAT_TARGET_LOSSES:
            yield _recast(ctx, lc.file, target, "float", f"{lc.kind} takes float targets")


@fixer(
    "loss_mask_error",
    "the mask that removes real elements from the loss dropped: no ignore_index on a real "
    "class, no subset by a mask that keeps the wrong elements, a mask comparison inverted",
)
def loss_mask_error(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for lc in loss_calls_at(ctx, f):
        for call, file in ((lc.node, lc.file), (lc.ctor, lc.ctor_file)):
            if call is None:
                continue
            edit = drop_kwarg(src, file, call, "ignore_index")
            if edit is not None:
                yield Candidate(f"removed ignore_index from `{sx.flat(call)[:80]}` ({at(file, call)}): it dropped a real class", (edit,))  # fmt: skip
        positional, _ = sx.call_args(lc.node)
        masked = [a for a in positional[:2] if a.type == "subscript"]
        if len(masked) == 2:
            edits = tuple(
                src.replace(lc.file, a, sx.text(a.child_by_field_name("value")), anchor=(i == 0))
                for i, a in enumerate(masked)
            )
            yield Candidate(f"the loss at {at(lc.file, lc.node)} takes every element, not the masked subset", edits)  # fmt: skip
    # a mask built with == / != on the lines the finding names, inverted; then a mask the
    # statement there reads, built in the same function (`mask = (targets == PAD)` a line on)
    for file, stmt in _mask_statements(ctx, f):
        for node in sx.descendants(stmt):
            if node.type == "comparison_operator":
                ops = [c for c in node.children if c.type in ("==", "!=")]
                if len(ops) == 1:
                    flipped = "!=" if ops[0].type == "==" else "=="
                    yield Candidate(
                        f"mask `{sx.flat(node)}` inverted ({at(file, node)}): it kept the elements the loss must drop",
                        (Edit(file, ops[0].start_byte, ops[0].end_byte, flipped, 0),),
                    )


def _mask_statements(ctx: FixContext, f: Finding) -> list[tuple[str, Node]]:
    """The statements at the finding's places, then the assignments of a comparison in
    the same function whose name a statement there, or the function's return, reads."""
    out: list[tuple[str, Node]] = []
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        out.append((file, stmt))
        fn = sx.enclosing_function(stmt)
        body = [n for n in sx.descendants(fn) if n.type in ("expression_statement", "return_statement")] if fn else []  # fmt: skip
        readers = [stmt] + [n for n in body if n.type == "return_statement"]
        read = {sx.text(n) for r in readers for n in sx.descendants(r) if n.type == "identifier"}
        for s in body:
            a = s.named_children[0] if s.type == "expression_statement" and s.named_children else None  # fmt: skip
            left = a.child_by_field_name("left") if a is not None and a.type == "assignment" else None  # fmt: skip
            right = a.child_by_field_name("right") if left is not None else None
            if right is not None and sx.text(left) in read and any(n.type == "comparison_operator" for n in [right, *sx.descendants(right)]):  # fmt: skip
                out.append((file, s))
    return list(dict.fromkeys(out))


def _statements_of(ctx: FixContext, f: Finding) -> list[tuple[str, Node]]:
    """The statements at the finding's places, then those after them in the same
    function that build a tensor (`torch.tensor(...)` re-wrapping floats a line later)."""
    out: list[tuple[str, Node]] = []
    for file, line in ctx.places(f):
        stmt = ctx.statement(file, line)
        if stmt is None:
            continue
        out.append((file, stmt))
        fn = sx.enclosing_function(stmt)
        for later in sx.descendants(fn) if fn is not None else []:
            if (
                later.type == "expression_statement"
                and later.start_byte > stmt.start_byte
                and any(sx.text(sx.call_function(c) or c).rsplit(".", 1)[-1] in ("tensor", "as_tensor") for c in sx.calls_in(later))
            ):  # fmt: skip
                out.append((file, later))
    return list(dict.fromkeys(out))


def _item_copies(scope: Node) -> dict[str, str]:
    """Containers of Python floats copied from tensors in scope, by name, with the
    container of tensors they came from: `logs = {k: v.item() for k, v in losses.items()}`
    -> {"logs": "losses"}; `vals = [t.item() for t in parts]` -> {"vals": "parts"}."""
    out: dict[str, str] = {}
    for node in sx.descendants(scope):
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        if right.type not in ("dictionary_comprehension", "list_comprehension"):
            continue
        body = right.child_by_field_name("body")
        value = body.child_by_field_name("value") if body is not None and body.type == "pair" else body  # fmt: skip
        clause = next((c for c in right.named_children if c.type == "for_in_clause"), None)
        source = clause.child_by_field_name("right") if clause is not None else None
        if value is None or source is None or sx.method_name(value) != "item":
            continue
        if right.type == "dictionary_comprehension":
            if source.type != "call" or sx.method_name(source) != "items":
                continue
            source = sx.receiver(source)
        if source is not None:
            out[sx.text(left)] = sx.text(source)
    return out


def _strip_item(node: Node, floats: dict[str, str] | None = None) -> str:
    """node's text with `x.item()` -> `x` and `float(x)` -> `x` inside it, and a read of
    a container of floats copied from tensors (`floats`) -> the same read of the tensors."""
    text = sx.text(node)
    base = node.start_byte
    cuts: list[tuple[int, int, str]] = []
    for n in [node, *sx.descendants(node)]:
        if n.type == "subscript" and floats:
            value = n.child_by_field_name("value")
            if value is not None and value.type == "identifier" and sx.text(value) in floats:
                cuts.append((value.start_byte, value.end_byte, floats[sx.text(value)]))
        if n.type != "call":
            continue
        if sx.method_name(n) == "item" and sx.receiver(n) is not None:
            r = sx.receiver(n)
            assert r is not None
            cuts.append((n.start_byte, n.end_byte, sx.text(r)))
        elif sx.text(sx.call_function(n) or n) == "float":
            positional, _ = sx.call_args(n)
            if len(positional) == 1:
                cuts.append((n.start_byte, n.end_byte, sx.text(positional[0])))
    raw = text.encode("utf-8")
    outer: list[tuple[int, int, str]] = []
    for c in sorted(cuts, key=lambda c: (c[0], -c[1])):
        if outer and c[0] < outer[-1][1]:
            continue  # inside a cut already taken: the outer one keeps its own text
        outer.append(c)
    for start, end, new in reversed(outer):
        raw = raw[: start - base] + new.encode("utf-8") + raw[end - base :]
    return raw.decode("utf-8")


@fixer(
    "loss_detached_scale",
    "the loss kept as a tensor in the graph: a re-wrap of .item() values removed or undone, "
    "a tiny constant scale removed",
)
def loss_detached_scale(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, stmt in _statements_of(ctx, f):
        floats = _item_copies(sx.enclosing_function(stmt) or stmt)
        for call in sx.calls_in(stmt):
            fn = sx.call_function(call)
            if fn is None or sx.text(fn).rsplit(".", 1)[-1] not in ("tensor", "as_tensor"):
                continue
            positional, _ = sx.call_args(call)
            if not positional:
                continue
            if rebound(stmt) is not None and "item" in sx.text(positional[0]):
                yield removal(
                    ctx, file, stmt, "it rebuilt the loss from a Python float, outside the graph"
                )
            yield Candidate(
                f"`{sx.flat(call)[:80]}` -> the tensors themselves ({at(file, call)}): the loss stays in the graph",
                (src.replace(file, call, _strip_item(positional[0], floats), anchor=True),),
            )
        for node in sx.descendants(stmt):
            if node.type == "binary_operator" and sx.text(node.children[1]) in ("/", "*"):
                right = node.child_by_field_name("right")
                value = sx.number(right)
                op = sx.text(node.children[1])
                if value is not None and (
                    (op == "/" and value >= 100) or (op == "*" and 0 < value <= 0.01)
                ):
                    left = node.child_by_field_name("left")
                    assert left is not None
                    yield Candidate(
                        f"`{sx.flat(node)[:80]}` -> `{sx.flat(left)[:60]}` ({at(file, node)}): the scale shrank the gradient to nothing",
                        (src.replace(file, node, sx.text(left), anchor=True),),
                    )  # fmt: skip


@fixer(
    "wrong_loss_for_task",
    "the loss the targets call for: cross-entropy for class ids with one output per "
    "class, BCE-with-logits for 0/1 targets with one logit, MSE for real-valued targets",
)
def wrong_loss_for_task(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    from torch_investigate.agent.fix.mechanical.tasks import right_losses

    yield from right_losses(ctx, f, loss_calls_at(ctx, f) or sites.training_losses(ctx.source))
