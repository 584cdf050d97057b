"""Which DataLoaders feed training: iterated by a training loop, or named for it."""

from __future__ import annotations

from dataclasses import dataclass

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.names import (
    EVALUATION_TEXT,
    TRAIN_FALSE,
    TRAINING_TEXT,
    is_data_loader,
)

ITERATION_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "zip", "trange"})


@dataclass(eq=False)
class LoaderSite:
    ctor: Value
    names: str  # the assigned name and the dataset argument, for role guesses
    trains: bool  # a training loop iterates it, or its names say train


def loaders(a: Analysis) -> list[LoaderSite]:
    return a.memo("loaders", lambda: _find(a))


def _find(a: Analysis) -> list[LoaderSite]:
    iterated = _iterated_by_training(a)
    out = []
    for unit in a.index.units.values():
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            if fn is None or not is_data_loader(unit.resolve_callee(fn)[1]):
                continue
            v = a.flow.value(unit, call)
            # Its own name: the target it is assigned to (when the call is the whole value)
            # and its dataset argument, not the rest of the statement (`return
            # DataLoader(train, ...), DataLoader(val, ...)` holds both words).
            statement = sx.statement_of(call)
            target = _target(statement) if _whole_value(call, statement) else ""
            dataset = sx.argument(call, 0, "dataset")
            names = f"{target} {sx.flat(dataset) if dataset is not None else ''}".strip()
            by_name = (
                bool(TRAINING_TEXT.search(names))
                and not EVALUATION_TEXT.search(names)
                and not TRAIN_FALSE.search(names)
            )
            out.append(LoaderSite(v, names, call.id in iterated or by_name))
    return out


def _whole_value(call, statement) -> bool:
    node = (
        statement.named_children[0]
        if statement.type == "expression_statement" and statement.named_children
        else statement
    )
    return node.type == "assignment" and node.child_by_field_name("right") == call


def _target(statement) -> str:
    node = (
        statement.named_children[0]
        if statement.type == "expression_statement" and statement.named_children
        else statement
    )
    left = node.child_by_field_name("left") if node.type == "assignment" else None
    return sx.flat(left) if left is not None else ""


def _iterated_by_training(a: Analysis) -> set[int]:
    """DataLoader constructor nodes that a training loop iterates over."""
    out: set[int] = set()
    for loop in a.training_loops:
        if loop.loop is None:
            continue
        node = loop.loop.value.node
        iterable = node.child_by_field_name("right")
        while iterable is not None and iterable.type == "call":
            fn = sx.call_function(iterable)
            if fn is None or sx.text(fn).rsplit(".", 1)[-1] not in ITERATION_WRAPPERS:
                break
            iterable = sx.argument(iterable, 0)
        if iterable is None:
            continue
        for obj in a.flow.objects(Value(iterable, loop.loop.value.frame), budget=60):
            if obj.kind == "external" and obj.ctor is not None and is_data_loader(obj.resolved):
                out.add(obj.ctor.node.id)
    return out


def is_eval_named(site: LoaderSite) -> bool:
    """Its target or its dataset says validation/test."""
    if TRAIN_FALSE.search(site.names):
        return True
    return bool(EVALUATION_TEXT.search(site.names)) and not TRAINING_TEXT.search(
        site.names.split(" ")[0] if site.names else ""
    )
