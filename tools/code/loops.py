"""Training loops as records: where backward and the optimizer step happen together."""

from __future__ import annotations

from typing import Literal, get_args

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import LoopContext, analysis
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.records import LoopEvent, TrainingLoop

LoopEventKind = Literal["backward", "step", "zero_grad", "scheduler_step"]
_RECORDED: dict[str, LoopEventKind] = {k: k for k in get_args(LoopEventKind)}


def find_training_loops(index: CodeIndex) -> list[TrainingLoop]:
    """Loops (or functions) that reach `.backward(` and an optimizer step, computed once per index."""
    return index.derived(
        "training_loops",
        lambda: [to_record(index, ctx) for ctx in analysis(index).training_loops],
    )


def to_record(index: CodeIndex, ctx: LoopContext) -> TrainingLoop:
    events = []
    for o in ctx.occurrences:
        kind = _RECORDED.get(o.kind)
        if kind is None:
            continue
        unit = o.event.value.frame.unit
        line = o.event.line
        events.append(
            LoopEvent(
                kind=kind,
                file=unit.file,
                line=line,
                symbol=index.enclosing_symbol(unit.file, line),
                text=unit.lines[line - 1].strip() if line <= len(unit.lines) else "",
                via=[f"{h.value.file}:{h.value.line}" for h in o.via],
            )
        )
    if ctx.loop is not None:
        node = ctx.loop.value.node
        return TrainingLoop(
            file=ctx.region.unit.file,
            symbol=ctx.region.qualname,
            kind="loop",
            line_start=sx.line(node),
            line_end=sx.end_line(node),
            header=ctx.loop.header,
            events=events,
            enclosing_loops=[lp.value.line for lp in ctx.outer],
        )
    assert ctx.region.node is not None
    fn = ctx.region.node
    return TrainingLoop(
        file=ctx.region.unit.file,
        symbol=ctx.region.qualname,
        kind="function",
        line_start=sx.line(fn),
        line_end=sx.end_line(fn),
        header=ctx.region.unit.lines[sx.line(fn) - 1].strip(),
        events=events,
    )
