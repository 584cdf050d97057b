"""The shared analysis of one index: value flow, event programs and training loops.

Built once per index on first use (`analysis(index)`) and shared by every check, so a
name is resolved and a function's program is built only once per investigation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar, cast

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.events import (
    Loop,
    Occurrence,
    Programs,
    gradient_transform_names,
)
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import Flow
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.names import GRADIENT_CALLS, GRADIENT_TRANSFORMS
from torch_investigate.tools.code.records import MODULE_SYMBOL

T = TypeVar("T")


@dataclass(eq=False)
class Region:
    """A function (node set) or a module's top level (node None) with its program."""

    unit: FileUnit
    node: Node | None
    qualname: str


@dataclass(eq=False)
class LoopContext:
    """A loop that reaches `.backward(` and an optimizer step, innermost such loop, or a
    function without a loop that does both and is called by no repo code."""

    region: Region
    loop: Loop | None  # None for a function-kind training step
    outer: tuple[Loop, ...]  # loops around it in the same function, outermost first
    occurrences: list[Occurrence]  # one pass over the body, helpers expanded

    def kinds(self) -> set[str]:
        return {o.kind for o in self.occurrences}


class Analysis:
    def __init__(self, index: CodeIndex) -> None:
        self.index = index
        self.flow = Flow(index)
        self.programs = Programs(self.flow)
        self._qualifies: dict[int, bool] = {}
        self._memo: dict[str, object] = {}

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """A value derived from the whole analysis, built once (loss calls, optimizers...)."""
        if key not in self._memo:
            self._memo[key] = build()
        return cast(T, self._memo[key])

    def regions(self) -> Iterator[Region]:
        for file in self.index.files:
            unit = self.index.units[file]
            yield Region(unit, None, MODULE_SYMBOL)
            for qualname, node in unit.definitions.items():
                if node.type == "function_definition":
                    yield Region(unit, node, qualname)

    def training_regions(self) -> Iterator[Region]:
        """Regions that may reach a `.backward(` call: the ones calling backward, and
        (transitively, by name) those calling them. Everything loop- and order-shaped
        only needs these, and most of a large library never gets near them."""
        reaching = self.memo("reaching_backward", self._reaching_backward)
        for region in self.regions():
            if (region.unit.file, region.qualname) in reaching:
                yield region

    def _reaching_backward(self) -> set[tuple[str, str]]:
        calls: dict[tuple[str, str], set[str]] = {}
        direct: set[tuple[str, str]] = set()
        for unit in self.index.units.values():
            transforms = gradient_transform_names(unit)
            for call, scope in zip(unit.call_nodes, unit.call_scopes, strict=True):
                fn = sx.call_function(call)
                if fn is None:
                    continue
                name_node = fn.child_by_field_name("attribute") if fn.type == "attribute" else fn
                name = sx.text(name_node) if name_node is not None else ""
                key = (unit.file, scope)
                called = calls.setdefault(key, set())
                called.add(name)
                # a function handed over to run later (`optimizer.step(closure)`)
                called.update(sx.text(a) for a in sx.call_args(call)[0] if a.type == "identifier")
                if (
                    name == "backward"
                    or (fn.type == "identifier" and name in transforms)
                    or unit.resolve_callee(fn)[1] in GRADIENT_CALLS | GRADIENT_TRANSFORMS
                ):
                    direct.add(key)
        reaching = set(direct)
        for _ in range(6):  # helpers are inlined this deep at most
            names = {qualname.rsplit(".", 1)[-1] for _, qualname in reaching} | {"forward"}
            grown = {key for key, called in calls.items() if called & names} | reaching
            if grown == reaching:
                break
            reaching = grown
        return reaching

    def program(self, region: Region) -> list:
        if region.node is None:
            return self.programs.of_module(region.unit)
        return self.programs.of_function(region.unit, region.node)

    def is_called(self, region: Region) -> bool:
        return region.node is not None and bool(self.flow.callers(region.node))

    def root_regions(self, *, training_only: bool = False) -> Iterator[Region]:
        """Module top levels and functions no repo code calls: where execution starts
        (only those that may reach a backward, with training_only)."""
        for region in self.training_regions() if training_only else self.regions():
            if not self.is_called(region):
                yield region

    def loop_trains(self, loop: Loop) -> bool:
        """The loop reaches a backward and an optimizer step (through helpers too)."""
        key = loop.value.node.id
        if key not in self._qualifies:
            self._qualifies[key] = False  # guard against recursion through helpers
            kinds = self.programs.kinds(loop.items)
            self._qualifies[key] = "backward" in kinds and "step" in kinds
        return self._qualifies[key]

    @cached_property
    def training_loops(self) -> list[LoopContext]:
        found: list[LoopContext] = []
        for region in self.training_regions():
            program = self.program(region)
            has_loop = False
            for loop, outer in self.programs.iter_loops(program):
                if not self.loop_trains(loop):
                    continue
                has_loop = True
                occurrences = self.programs.flatten(loop.items)
                inner = {id(lp): lp for o in occurrences for lp in o.loops}
                if any(self.loop_trains(lp) for lp in inner.values()):
                    continue
                found.append(LoopContext(region, loop, outer, occurrences))
            if has_loop or region.node is None or self.is_called(region):
                continue
            if not {"backward", "step"} <= self.programs.kinds(program):
                continue
            top = self.programs.flatten(program)
            kinds = {o.kind for o in top if not o.loops}
            if "backward" in kinds and "step" in kinds:
                found.append(LoopContext(region, None, (), top))
        return found


def analysis(index: CodeIndex) -> Analysis:
    """The index's shared analysis, built on first use."""
    return index.derived("analysis", lambda: Analysis(index))
