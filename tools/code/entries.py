"""Which files start training: module-level code (a script's body, a main guard, a
package's `__main__`) that reaches a training step through the repo's call graph.

A training step is a training loop the analysis found (backward and an update, through
helpers; backward alone when no code does both, since the missing update may be the
defect), or a hand-over to a framework that runs the loop itself (Lightning's
`Trainer.fit`, a Hugging Face `Trainer.train`). From each one the callers are followed
upward (function calls, methods through the objects they are called on, constructors)
until module-level code is reached: that file is an entry point, whatever it is named.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.records import MODULE_SYMBOL
from torch_investigate.tools.code.values import Value

# Frameworks whose own loop does backward and the update: (top-level package, method).
FRAMEWORK_LOOPS = {
    ("lightning", "fit"),
    ("pytorch_lightning", "fit"),
    ("transformers", "train"),
    ("accelerate", "train"),
}
MAX_HOPS = 12


@dataclass(frozen=True)
class Reach:
    """How a file's top level reaches training."""

    file: str
    via: str  # `Trainer.fit (trainer.py:40)`, `the training loop at train.py:31`
    line: int  # where in the file the chain starts


def entries(index: CodeIndex) -> dict[str, Reach]:
    """file -> how its module-level code reaches a training step."""
    return index.derived("training_entries", lambda: _entries(index))


def _entries(index: CodeIndex) -> dict[str, Reach]:
    a = analysis(index)
    todo: list[tuple[Node | None, str, str, int]] = []  # (def node or None, file, via, hops)
    for ctx in a.training_loops:
        line = sx.line(ctx.loop.value.node) if ctx.loop else sx.line(ctx.region.node)
        via = f"the training loop at {ctx.region.unit.file}:{line} ({ctx.region.qualname})"
        todo.append((ctx.region.node, ctx.region.unit.file, via, 0))
    for unit in index.units.values():
        for call, scope in zip(unit.call_nodes, unit.call_scopes, strict=True):
            via = _framework_loop(a, unit, call)
            if via:
                node = unit.definitions.get(scope) if scope != MODULE_SYMBOL else None
                todo.append((node, unit.file, via, 0))
    found = _follow_callers(a, todo)
    if not found:
        # no loop does backward and an update: the update may be the defect itself (a
        # removed `optimizer.step()`), so code that calls backward still starts training
        found = _follow_callers(a, list(_backward_seeds(a)))
    return found


def _backward_seeds(a):
    for region in a.training_regions():
        if "backward" in a.programs.kinds(a.program(region)):
            via = f"the backward pass in {region.unit.file} ({region.qualname})"
            yield (region.node, region.unit.file, via, 0)


def _follow_callers(a, todo: list[tuple[Node | None, str, str, int]]) -> dict[str, Reach]:
    """From each seed up through its callers to module-level code."""
    found: dict[str, Reach] = {}
    seen: set[int] = set()
    while todo:
        node, file, via, hops = todo.pop()
        if node is None:
            found.setdefault(file, Reach(file=file, via=via, line=1))
            continue
        if node.id in seen or hops > MAX_HOPS:
            continue
        seen.add(node.id)
        for caller in a.flow.callers(node):
            scope = caller.frame.scope
            if scope is None:
                found.setdefault(caller.file, Reach(file=caller.file, via=via, line=caller.line))
            else:
                todo.append((scope, caller.file, via, hops + 1))
    return found


def _framework_loop(a, unit, call: Node) -> str | None:
    """`trainer.fit(model)` on a Lightning Trainer (and the like): the framework trains."""
    fn = sx.call_function(call)
    if fn is None or fn.type != "attribute":
        return None
    method = sx.text(fn.child_by_field_name("attribute"))
    receiver = fn.child_by_field_name("object")
    if receiver is None or not any(method == m for _, m in FRAMEWORK_LOOPS):
        return None
    for obj in a.flow.objects(Value(receiver, a.flow.frame_at(unit, call)), budget=40):
        top = (obj.resolved or "").split(".")[0]
        if (top, method) in FRAMEWORK_LOOPS:
            return f"{obj.resolved}.{method} ({unit.file}:{sx.line(call)})"
        ctor = obj.ctor
        if ctor is not None:
            callee = (
                unit.resolve_callee(sx.call_function(ctor.node))[1]
                if ctor.frame.unit is unit
                else ""
            )
            if (callee.split(".")[0], method) in FRAMEWORK_LOOPS:
                return f"{callee}.{method} ({unit.file}:{sx.line(call)})"
    return None
