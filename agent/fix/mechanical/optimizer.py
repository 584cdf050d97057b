"""Stage 6: the order of zero_grad, backward and step; what the optimizer owns; clipping,
weight decay and the scheduler.

Statements are found through the code index's training loops (their backward, step,
zero_grad and scheduler events), on the lines the finding and the trace name.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from torch_investigate.agent.fix.mechanical.base import Candidate, FixContext, at, fixer
from torch_investigate.agent.fix.mechanical.edits import move_after, removal
from torch_investigate.agent.fix.mechanical.schedules import mode_switch
from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.tools.code import LoopEvent, TrainingLoop
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import CLIPPING_FUNCTIONS, is_optimizer, last
from torch_investigate.tools.records import Finding


def loops_for(ctx: FixContext, f: Finding) -> list[TrainingLoop]:
    """The training loops the finding's places fall in (innermost first), else every
    training loop the run went through."""
    loops = ctx.source.loops()
    places = ctx.places(f)
    hit = [
        lp
        for lp in loops
        if any(file == lp.file and lp.line_start <= line <= lp.line_end for file, line in places)
        or any((e.file, e.line) in places for e in lp.events)
    ]
    if hit:
        return sorted(hit, key=lambda lp: lp.line_end - lp.line_start)
    seen = set(ctx.trace.seen_functions) if ctx.trace is not None else set()
    ran = [lp for lp in loops if f"{lp.file}:{lp.symbol.rsplit('.', 1)[-1]}" in seen]
    return ran or loops


def events(loop: TrainingLoop, kind: str) -> list[LoopEvent]:
    return [e for e in loop.events if e.kind == kind]


def statement(ctx: FixContext, e: LoopEvent) -> Node | None:
    return ctx.source.statement_on(e.file, e.line)


def receiver_of(ctx: FixContext, e: LoopEvent, method: str) -> str | None:
    """`optimizer` for the event `optimizer.step()` (`scaler.step(opt)`: `opt`)."""
    call = ctx.source.call_on_line(e.file, e.line, method)
    if call is None:
        return None
    recv = sx.receiver(call)
    if recv is not None and "scaler" not in sx.text(recv).lower():
        return sx.text(recv)
    arg = sx.argument(call, 0)
    return sx.text(arg) if arg is not None else None


def _same_block(a: Node, b: Node) -> bool:
    return a.parent is not None and b.parent is not None and a.parent.id == b.parent.id


def optimizer_name(ctx: FixContext, loop: TrainingLoop) -> str | None:
    """The optimizer the loop updates: a step's receiver, else the name bound to an
    optimizer construction in the loop's file."""
    for e in events(loop, "step"):
        name = receiver_of(ctx, e, "step")
        if name:
            return name
    for a in ctx.source.index.assignments:
        if a.file == loop.file and is_optimizer(a.resolved):
            return a.target
    return None


# ---- zero_grad, backward, step --------------------------------------------------------


@fixer(
    "missing_zero_grad",
    "gradients reset once per update: `optimizer.zero_grad()` after each step (or before "
    "each backward); for a hand-written update, `p.grad = None` after it",
)
def missing_zero_grad(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for loop in loops_for(ctx, f):
        backward = next((statement(ctx, e) for e in events(loop, "backward")), None)
        for e in events(loop, "step"):
            step = statement(ctx, e)
            if step is None:
                continue
            opt = receiver_of(ctx, e, "step")
            if opt is not None:
                yield Candidate(
                    f"added `{opt}.zero_grad()` after the step at {e.file}:{e.line}",
                    (src.insert_after(e.file, step, f"{opt}.zero_grad()", anchor=True),),
                )
                if backward is not None and backward.parent is not None:
                    b = next(ev for ev in events(loop, "backward"))
                    yield Candidate(
                        f"added `{opt}.zero_grad()` before the backward at {b.file}:{b.line}",
                        (src.insert_before(b.file, backward, f"{opt}.zero_grad()", anchor=True),),
                    )
                continue
            param = _updated_parameter(step)
            if param is not None:  # `for p in params: p.data -= lr * p.grad`
                yield Candidate(
                    f"added `{param}.grad = None` after the hand-written update at {e.file}:{e.line}",
                    (src.insert_after(e.file, step, f"{param}.grad = None", anchor=True),),
                )


def _updated_parameter(step: Node) -> str | None:
    """`p` for a statement that updates `p` from `p.grad` inside `for p in ...`."""
    for anc in sx.ancestors(step):
        if anc.type == "for_statement":
            left = anc.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                name = sx.text(left)
                if f"{name}.grad" in sx.text(step):
                    return name
        if anc.type in sx.SCOPE_TYPES:
            break
    return None


@fixer(
    "step_order",
    "each iteration ordered zero_grad -> backward -> step: a zero_grad between backward "
    "and step moved after the step, a step before backward moved after it",
)
def step_order(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    for loop in loops_for(ctx, f):
        zs, bs, ss = events(loop, "zero_grad"), events(loop, "backward"), events(loop, "step")
        if not bs or not ss:
            continue
        b, s = bs[0], ss[0]
        step, backward = statement(ctx, s), statement(ctx, b)
        if step is None or backward is None:
            continue
        for z in zs:
            zero = statement(ctx, z)
            if zero is None or z.file != s.file:
                continue
            if b.file == z.file and b.line < z.line < s.line:
                yield move_after(ctx, z.file, zero, step, "gradients are reset after the update, not before it")  # fmt: skip
            elif z.line > s.line and not _same_block(zero, step) and b.line < s.line:
                # the reset runs on every micro-batch while the step waits for several
                yield move_after(ctx, z.file, zero, step, "gradients are reset only after the update they accumulate for", indent=ctx.source.indent(s.file, step))  # fmt: skip
        if s.file == b.file and s.line < b.line and _same_block(step, backward):
            yield move_after(ctx, s.file, step, backward, "the update uses this batch's gradients")
        elif s.file == b.file and s.line < b.line:
            yield move_after(ctx, s.file, step, backward, "the update uses this batch's gradients", indent=ctx.source.indent(b.file, backward))  # fmt: skip


@fixer(
    "step_not_called",
    "`optimizer.step()` after each backward: a step left outside the loop moved in after "
    "the backward, or one added there",
)
def step_not_called(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    # the places name the backward and the step the run saw apart: the step moves in
    stmts = [(file, ctx.statement(file, line)) for file, line in ctx.places(f)]
    backwards = [(file, s) for file, s in stmts if s is not None and _calls(s, "backward")]
    steps = [(file, s) for file, s in stmts if s is not None and _is_step(s) and not _calls(s, "backward")]  # fmt: skip
    for file, backward in backwards:
        loop = _innermost_loop(backward)
        for sfile, step in steps:
            if sfile == file and loop is not None and not sx.contains(loop, step):
                whole = src.whole(step)
                yield move_after(ctx, file, whole, backward, "an update after every backward", indent=src.indent(file, backward))  # fmt: skip
    for loop in loops_for(ctx, f):
        bs = events(loop, "backward")
        if not bs:
            continue
        b = bs[0]
        backward = statement(ctx, b)
        if backward is None:
            continue
        pad = src.indent(b.file, backward)
        for e in events(loop, "step"):
            step = statement(ctx, e)
            outside = e.file == loop.file and not (loop.line_start <= e.line <= loop.line_end)
            if step is not None and e.file == b.file and outside:
                yield move_after(ctx, e.file, src.whole(step), backward, "an update after every backward", indent=pad)  # fmt: skip
        for e in events(loop, "step"):
            step = statement(ctx, e)
            if step is not None:
                yield from _counted_inside(ctx, e.file, step)
        opt = optimizer_name(ctx, loop)
        if opt is not None:
            yield Candidate(
                f"added `{opt}.step()` after the backward at {b.file}:{b.line}",
                (src.insert_after(b.file, backward, f"{opt}.step()", anchor=True),),
            )


def _counted_inside(ctx: FixContext, file: str, step: Node) -> Iterator[Candidate]:
    """The step sits in a branch whose condition reads a counter that only that branch
    advances (`if (global_step + 1) % k == 0: ...; global_step += 1`): the branch never
    opens. The condition reads the loop's own index (`for i, batch in enumerate(...)`)."""
    branch = next((a for a in sx.ancestors(step) if a.type == "if_statement"), None)
    loop = _innermost_loop(step)
    if branch is None or loop is None or not sx.contains(loop, branch):
        return
    cond, body = branch.child_by_field_name("condition"), branch.child_by_field_name("consequence")  # fmt: skip
    index = _enumerate_index(loop)
    if cond is None or body is None or index is None:
        return
    loop_body = loop.child_by_field_name("body")
    for name in sorted({sx.text(n) for n in sx.descendants(cond) if n.type == "identifier"}):
        advanced = [n for n in sx.descendants(loop_body) if _advances(n, name)] if loop_body else []  # fmt: skip
        if not advanced or not all(sx.contains(body, n) for n in advanced):
            continue
        uses = [n for n in [cond, *sx.descendants(cond)] if n.type == "identifier" and sx.text(n) == name]  # fmt: skip
        edits = tuple(ctx.source.replace(file, n, index, anchor=i == 0) for i, n in enumerate(uses))
        yield Candidate(
            f"the condition around the step reads `{index}` instead of `{name}` ({at(file, cond)}): `{name}` only advances inside that branch, so it never opened",
            edits,
        )


def _advances(node: Node, name: str) -> bool:
    """`name += ...` or `name = name + ...`."""
    left = node.child_by_field_name("left") if node.type in ("augmented_assignment", "assignment") else None  # fmt: skip
    return left is not None and left.type == "identifier" and sx.text(left) == name


def _enumerate_index(loop: Node) -> str | None:
    """`i` for `for i, batch in enumerate(loader)`."""
    if loop.type != "for_statement":
        return None
    left, right = loop.child_by_field_name("left"), loop.child_by_field_name("right")
    if left is None or right is None or right.type != "call":
        return None
    fn = sx.call_function(right)
    if (
        fn is None
        or sx.text(fn) != "enumerate"
        or left.type not in ("pattern_list", "tuple_pattern")
    ):
        return None
    first = left.named_children[0] if left.named_children else None
    return sx.text(first) if first is not None and first.type == "identifier" else None


def _calls(stmt: Node, method: str) -> bool:
    return any(sx.method_name(c) == method for c in sx.calls_in(stmt))


def _innermost_loop(stmt: Node) -> Node | None:
    for anc in sx.ancestors(stmt):
        if anc.type in sx.LOOP_TYPES:
            return anc
        if anc.type in sx.SCOPE_TYPES:
            return None
    return None


def _is_step(stmt: Node) -> bool:
    """An optimizer step, or a hand-written update from `.grad` (`p.data -= lr * p.grad`)."""
    if _calls(stmt, "step"):
        return True
    assign = (
        stmt.named_children[0]
        if stmt.type == "expression_statement" and stmt.named_children
        else None
    )
    return (
        assign is not None and assign.type == "augmented_assignment" and ".grad" in sx.text(assign)
    )


# ---- scheduler ---------------------------------------------------------------------------


@fixer(
    "scheduler_misuse",
    "the scheduler stepped once per epoch after the optimizer: a `scheduler.step()` inside "
    "the batch loop moved after it, one before the optimizer's step moved after that, a "
    "callback that steps it per batch by default built with its per-epoch mode",
)
def scheduler_misuse(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    yield from mode_switch(ctx, f)
    for loop in loops_for(ctx, f):
        node = src.loop_node(loop)
        steps = events(loop, "step")
        for e in events(loop, "scheduler_step"):
            stmt = statement(ctx, e)
            if stmt is None:
                continue
            inside = e.file == loop.file and loop.line_start <= e.line <= loop.line_end
            if inside and node is not None and loop.enclosing_loops:
                yield move_after(ctx, e.file, stmt, node, "the schedule advances once per epoch")
            elif inside:  # no epoch loop to step it in: the per-batch decay goes
                yield removal(ctx, e.file, stmt, "no per-batch decay (the loop has no epochs to step it once per epoch)")  # fmt: skip
            for s in steps:
                step = statement(ctx, s)
                if step is not None and s.file == e.file and e.line < s.line:
                    yield move_after(ctx, e.file, stmt, step, "the schedule follows the update")


# ---- clipping, weight decay, ownership -------------------------------------------------


def calls_at_places(ctx: FixContext, f: Finding, want) -> list[tuple[str, Node]]:
    """Calls on the finding's lines whose resolved name `want` accepts."""
    found = []
    for file, line in ctx.places(f):
        for site, node in ctx.source.calls(file):
            if site.line == line and want(site.resolved):
                found.append((file, node))
    return found


def optimizer_ctors(ctx: FixContext, f: Finding) -> list[tuple[str, Node]]:
    """The optimizer constructions at the finding's places, else those the trace saw
    built, else every one the index knows."""
    at_places = calls_at_places(ctx, f, is_optimizer)
    if at_places:
        return at_places
    ctors = sites.optimizer_calls(ctx.source)
    if ctx.trace is not None:
        made = {(o.frame.file, o.frame.line) for o in ctx.trace.optimizers if o.frame is not None}
        traced = [(file, c) for file, c in ctors if (file, sx.line(c)) in made]
        if traced:
            return traced
    return ctors


@fixer(
    "tiny_grad_clip",
    "the gradient clipping that scaled every update to nothing given no limit (or removed)",
)
def tiny_grad_clip(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    calls = list(calls_at_places(ctx, f, lambda n: last(n) in CLIPPING_FUNCTIONS))
    if ctx.trace is not None:
        for clip in ctx.trace.clips:
            frame = clip.frame
            stmt = ctx.statement(frame.file, frame.line) if frame is not None else None
            if frame is not None and frame.file in ctx.source.files and stmt is not None:
                calls += [
                    (frame.file, c)
                    for c in sx.calls_in(stmt)
                    if last(sx.flat(sx.call_function(c) or c)) in CLIPPING_FUNCTIONS
                ]
    for file, call in calls:
        # an infinite limit keeps what the program does with the call's result (a norm it
        # logs or averages) and clips nothing; removing the statement would lose that
        limit = sx.argument(call, 1, "max_norm") or sx.argument(call, 1, "clip_value")
        if limit is not None:
            yield Candidate(
                f'`{sx.flat(limit)}` -> `float("inf")` in `{sx.flat(call)[:80]}` ({at(file, call)}): '
                "gradient clipping off",
                (ctx.source.replace(file, limit, 'float("inf")', anchor=True),),
            )
        stmt = sx.statement_of(call)
        whole = stmt.named_children[0] if stmt.named_children else None
        if stmt.type == "expression_statement" and whole is not None and whole.id == call.id:
            yield removal(ctx, file, stmt, "gradient clipping off")


@fixer("excessive_weight_decay", "weight decay off (`weight_decay=0`) in the optimizer")
def excessive_weight_decay(ctx: FixContext, f: Finding) -> Iterator[Candidate]:
    src = ctx.source
    for file, call in optimizer_ctors(ctx, f):
        _, keywords = sx.call_args(call)
        edits: list[Edit] = []
        if "weight_decay" in keywords:
            edits.append(src.replace(file, keywords["weight_decay"], "0.0", anchor=True))
        for group in _param_group_dicts(call):
            for pair in group.named_children:
                key = pair.child_by_field_name("key")
                value = pair.child_by_field_name("value")
                if key is not None and value is not None and sx.string_value(key) == "weight_decay":
                    edits.append(src.replace(file, value, "0.0", anchor=not edits))
        if edits:
            yield Candidate(f"weight_decay -> 0.0 in `{sx.flat(call)[:80]}` ({at(file, call)})", tuple(edits))  # fmt: skip


def _param_group_dicts(call: Node) -> list[Node]:
    params = sx.argument(call, 0, "params")
    if params is None or params.type != "list":
        return []
    return [d for d in params.named_children if d.type == "dictionary"]
