"""Stage 6 operators: the optimizer update (zero_grad, order, step, scheduler, clipping,
weight decay, the parameters the optimizer owns)."""

from __future__ import annotations

from collections.abc import Iterator

from torch_investigate.evals.seeding import sites
from torch_investigate.evals.seeding.operators.base import Mutation, operator, site
from torch_investigate.evals.seeding.operators.loop_lookup import (
    event_statement,
    events,
    first,
    free_name,
    outermost_loop_statement,
    receiver_text,
    same_scope,
)
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import last, torch_layer

TINY_CLIP = "1e-4"


@operator(
    "missing_zero_grad", "delete every zero_grad (or `p.grad = None` loop) in the training loop"
)
def missing_zero_grad(src: Source) -> Iterator[Mutation]:
    for loop in src.loops():
        stmts = []
        for e in events(loop, "zero_grad"):
            stmt = event_statement(src, e)
            if stmt is not None:
                stmts.append((e.file, src.whole(stmt)))
        if not stmts:
            continue
        file, stmt = stmts[0]
        edits = [src.delete(f, s, anchor=i == 0) for i, (f, s) in enumerate(stmts)]
        where = ", ".join(f"{f}:{sx.line(s)}" for f, s in stmts)
        yield Mutation(
            "delete", site(file, sx.line(stmt)), f"deleted the zero_grad at {where}", tuple(edits)
        )


@operator("step_order", "move zero_grad from before backward to between backward and step")
def step_order(src: Source) -> Iterator[Mutation]:
    for loop in src.loops():
        z, b, s = (first(loop, k, direct=True) for k in ("zero_grad", "backward", "step"))
        if z is None or b is None or s is None or not b.line < s.line:
            continue
        if b.line < z.line < s.line:
            continue  # already between them
        zstmt, bstmt = event_statement(src, z), event_statement(src, b)
        if zstmt is None or bstmt is None:
            continue
        zstmt = src.whole(zstmt)
        if sx.contains(zstmt, bstmt) or sx.contains(bstmt, zstmt):
            continue
        edits = (
            src.delete(loop.file, zstmt),
            src.insert_after(loop.file, bstmt, src.dedented(loop.file, zstmt), anchor=True),
        )
        yield Mutation(
            "after_backward",
            site(loop.file, z.line),
            f"moved `{sx.flat(zstmt)}` from {loop.file}:{z.line} to right after the backward "
            f"at {loop.file}:{b.line}",
            edits,
        )


@operator("step_not_called", "move the optimizer step out of the training loop, after it")
def step_not_called(src: Source) -> Iterator[Mutation]:
    for loop in src.loops():
        s = first(loop, "step", direct=True)
        node = src.loop_node(loop)
        stmt = event_statement(src, s) if s is not None else None
        if s is None or node is None or stmt is None:
            continue
        stmt = src.whole(stmt)
        edits = (
            src.delete(loop.file, stmt),
            src.insert_after(
                loop.file, node, src.dedented(loop.file, stmt), anchor=True,
                indent=src.indent(loop.file, node),
            ),
        )  # fmt: skip
        yield Mutation(
            "after_loop",
            site(loop.file, s.line),
            f"moved `{sx.flat(stmt)}` ({loop.file}:{s.line}) out of the loop "
            f"`{loop.header}`, after it",
            edits,
        )


@operator(
    "scheduler_misuse",
    "step a per-epoch scheduler per batch, or add an ExponentialLR stepped every batch",
)
def scheduler_misuse(src: Source) -> Iterator[Mutation]:
    yield from _scheduler_per_batch(src)
    yield from _scheduler_inserted(src)


def _scheduler_per_batch(src: Source) -> Iterator[Mutation]:
    schedulers = {s.target for s in src.index.scheduler_sites() if s.target}
    for call, node in src.calls():
        obj = sx.receiver(node)
        if sx.method_name(node) != "step" or obj is None or sx.text(obj) not in schedulers:
            continue
        if any(src.in_loop(lp, call.file, call.line) for lp in src.loops()):
            continue
        for loop in src.loops():
            s = first(loop, "step", direct=True)
            sstmt = event_statement(src, s) if s else None
            if s is None or sstmt is None or loop.file != call.file:
                continue
            here = src.index.enclosing_symbol(call.file, call.line)
            in_class = here.rsplit(".", 1)[0] == loop.symbol.rsplit(".", 1)[0]
            if not (here == loop.symbol or (sx.text(obj).startswith("self.") and in_class)):
                continue
            stmt = src.statement(node)
            edits = (
                src.delete(call.file, stmt),
                src.insert_after(
                    loop.file, src.whole(sstmt), src.dedented(call.file, stmt), anchor=True
                ),
            )
            yield Mutation(
                "per_batch",
                site(call.file, call.line),
                f"moved `{sx.flat(stmt)}` ({call.file}:{call.line}) into the batch loop, "
                f"after the optimizer step at {loop.file}:{s.line}",
                edits,
            )


def _scheduler_inserted(src: Source) -> Iterator[Mutation]:
    for loop in src.loops():
        if events(loop, "scheduler_step"):
            continue
        s = first(loop, "step", direct=True)
        opt = receiver_text(src, s) if s is not None else None
        sstmt = event_statement(src, s) if s is not None else None
        outer = outermost_loop_statement(src, loop)
        if s is None or opt is None or sstmt is None or outer is None:
            continue
        if sx.method_name(src.call_on_line(s.file, s.line, "step")) != "step":  # type: ignore[arg-type]
            continue
        torch, imports = src.torch_expr(loop.file)
        name = free_name(src, loop.file, "scheduler", "lr_schedule")
        ctor = f"{name} = {torch}.optim.lr_scheduler.ExponentialLR({opt}, gamma=0.9)"
        edits = (
            *imports,
            src.insert_before(loop.file, outer, ctor),
            src.insert_after(loop.file, src.whole(sstmt), f"{name}.step()", anchor=True),
        )
        yield Mutation(
            "exponential_per_batch",
            site(loop.file, s.line),
            f"added `{ctor}` before the loop at {loop.file}:{sx.line(outer)} and "
            f"`{name}.step()` after the optimizer step at {loop.file}:{s.line}",
            edits,
        )


@operator("tiny_grad_clip", f"clip_grad_norm_ at max_norm={TINY_CLIP}: lower it, or add it")
def tiny_grad_clip(src: Source) -> Iterator[Mutation]:
    clipped = set()
    for call, node in src.calls():
        if last(call.resolved) not in ("clip_grad_norm_", "clip_grad_norm"):
            continue
        loop = next((lp for lp in src.loops() if src.in_loop(lp, call.file, call.line)), None)
        arg = sx.argument(node, 1, "max_norm")
        if loop is None or arg is None:
            continue
        clipped.add(id(loop))
        yield Mutation(
            "lowered",
            site(call.file, call.line),
            f"clip_grad_norm_ max_norm {sx.flat(arg)} -> {TINY_CLIP} at {call.file}:{call.line}",
            (src.replace(call.file, arg, TINY_CLIP, anchor=True),),
        )
    for loop in src.loops():
        b, s = first(loop, "backward", direct=True), first(loop, "step", direct=True)
        bstmt = event_statement(src, b) if b else None
        opt = receiver_text(src, s) if s else None
        if id(loop) in clipped or b is None or bstmt is None or opt is None:
            continue
        torch, imports = src.torch_expr(loop.file)
        params = _params_expr(src, loop, opt)
        code = f"{torch}.nn.utils.clip_grad_norm_({params}, max_norm={TINY_CLIP})"
        yield Mutation(
            "added",
            site(loop.file, b.line),
            f"added `{code}` after the backward at {loop.file}:{b.line}",
            (*imports, src.insert_after(loop.file, bstmt, code, anchor=True)),
        )


def _params_expr(src: Source, loop, opt: str) -> str:
    """What the optimizer was given, when it is in scope; else its param groups."""
    for model in sites.trained_models(src, with_optimizer=True):
        assert model.optimizer is not None
        if same_scope(src, model.file, sx.line(model.optimizer), loop):
            arg = sx.argument(model.optimizer, 0, "params")
            if arg is not None:
                return sx.text(arg)
    return f'[p for group in {opt}.param_groups for p in group["params"]]'


WEIGHT_DECAYS = ("1.0", "10.0", "100.0")


@operator("excessive_weight_decay", "weight_decay set to 1, 10 or 100 in the optimizer")
def excessive_weight_decay(src: Source) -> Iterator[Mutation]:
    for file, node in sites.optimizer_calls(src):
        line = sx.line(node)
        for value in WEIGHT_DECAYS:
            yield Mutation(
                f"wd_{value}",
                site(file, line),
                f"weight_decay={value} in the optimizer at {file}:{line}",
                (src.set_kwarg(file, node, "weight_decay", value), src.mark(file, node)),
            )


@operator(
    "optimizer_missing_params",
    "the optimizer gets one submodule's parameters, or the head is replaced after it is built",
)
def optimizer_missing_params(src: Source) -> Iterator[Mutation]:
    for model in sites.trained_models(src, with_optimizer=True):
        assert model.optimizer is not None
        params = sx.argument(model.optimizer, 0, "params")
        if params is None:
            continue
        line = sx.line(model.optimizer)
        for spelling, expr in _subsets(src, model):
            yield Mutation(
                spelling,
                site(model.file, line),
                f"optimizer at {model.file}:{line} built from `{expr}` only",
                (src.replace(model.file, params, expr), src.mark(model.file, model.optimizer)),
            )
        swap = _head_swap(src, model)
        if swap is not None:
            stmt = src.statement(model.optimizer)
            nn, imports = src.torch_expr(model.file, "torch.nn")
            code = swap.replace("{nn}", nn)
            yield Mutation(
                "layer_swapped_after",
                site(model.file, line),
                f"added `{code}` after the optimizer is built ({model.file}:{line})",
                (*imports, src.insert_after(model.file, stmt, code, anchor=True)),
            )


def _subsets(src: Source, model: sites.TrainedModel) -> list[tuple[str, str]]:
    x = model.expr
    if model.cls is not None:
        layers = [
            a.target.removeprefix("self.")
            for a, _ in sites.parameterized_attributes(src, model.cls)
        ]
        if len(layers) < 2:
            return []
        return [
            ("subset_first", f"{x}.{layers[0]}.parameters()"),
            ("subset_last", f"{x}.{layers[-1]}.parameters()"),
        ]
    if model.ctor_name == "Sequential" and model.ctor is not None:
        if len(sx.call_args(model.ctor)[0]) >= 2:
            return [
                ("subset_first", f"{x}[0].parameters()"),
                ("subset_last", f"{x}[-1].parameters()"),
            ]
    if model.ctor_name == "Linear":
        return [("weight_only", f"[{x}.weight]")]
    return []


def _head_swap(src: Source, model: sites.TrainedModel) -> str | None:
    """`model.head = nn.Linear(...)` for the model's last Linear layer, if it has one."""
    x = model.expr
    if model.cls is not None:
        linears = [
            a.target.removeprefix("self.")
            for a, _ in sites.layer_attributes(src, model.cls)
            if torch_layer(a.resolved) == "Linear"
        ]
        if linears:
            h = f"{x}.{linears[-1]}"
            return f"{h} = {{nn}}.Linear({h}.in_features, {h}.out_features)"
    if model.ctor_name == "Sequential" and model.ctor is not None:
        layers = sx.call_args(model.ctor)[0]
        if len(layers) >= 2 and layers[-1].type == "call":
            callee = sx.dotted(sx.call_function(layers[-1])) or ""
            if callee.rsplit(".", 1)[-1] == "Linear":
                h = f"{x}[-1]"
                return f"{h} = {{nn}}.Linear({h}.in_features, {h}.out_features)"
    return None
