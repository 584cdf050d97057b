"""Where an operator edits a training loop: its events as statements, the receiver of an
event's call, the outermost loop, whether a line shares the loop's scope, and a name
the file does not use yet."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import LoopEvent, TrainingLoop
from torch_investigate.tools.code import syntax as sx


def events(loop: TrainingLoop, kind: str, *, direct: bool = False) -> list[LoopEvent]:
    """The loop's events of kind; `direct`: only those written in the loop itself."""
    return [
        e
        for e in loop.events
        if e.kind == kind and (not direct or (not e.via and e.file == loop.file))
    ]


def first(loop: TrainingLoop, kind: str, *, direct: bool = False) -> LoopEvent | None:
    found = events(loop, kind, direct=direct)
    return found[0] if found else None


def event_statement(src: Source, e: LoopEvent) -> Node | None:
    return src.statement_on(e.file, e.line)


def receiver_text(src: Source, e: LoopEvent) -> str | None:
    """`optimizer` for the event `optimizer.step()`."""
    call = src.call_on_line(e.file, e.line, e.kind if e.kind != "scheduler_step" else "step")
    obj = sx.receiver(call) if call is not None else None
    return sx.text(obj) if obj is not None else None


def free_name(src: Source, file: str, preferred: str, *others: str) -> str:
    """The first of the names that the file does not already use."""
    used = sx.identifiers_in(src.unit(file).tree.root_node)
    for name in (preferred, *others):
        if name not in used:
            return name
    n = 2
    while f"{preferred}{n}" in used:
        n += 1
    return f"{preferred}{n}"


def same_scope(src: Source, file: str, line: int, loop: TrainingLoop) -> bool:
    """Code at file:line is in the function (or module top level) that holds loop."""
    return file == loop.file and src.index.enclosing_symbol(file, line) == loop.symbol


def outermost_loop_statement(src: Source, loop: TrainingLoop) -> Node | None:
    """The outermost loop around the training loop in its function (the epoch loop),
    or the training loop itself."""
    for line in loop.enclosing_loops[:1]:
        node = src.statement_on(loop.file, line)
        if node is not None and node.type in sx.LOOP_TYPES:
            return node
    return src.loop_node(loop)
