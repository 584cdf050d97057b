"""Trace records of loss masks multiplied into losses written by hand
(tools/trace/difference_mask.py)."""

from __future__ import annotations

from pydantic import Field

from torch_investigate.tools.tracefile.records import Frame, TraceRecord


class DifferenceMask(TraceRecord):
    """A 0/1 tensor multiplied into a hand-written difference (`(pred - y) ** 2 * keep`),
    summed over the detailed steps at that multiplication."""

    frame: Frame | None = None  # the multiplication
    calls: int = 0
    kept: int = 0  # elements the mask keeps, over all calls
    total: int = 0
    one_value: int = 0  # calls whose kept targets are one value while the batch has several
    kept_values: list[float] = Field(default_factory=list)  # up to 16 distinct kept targets
    # calls whose model input had the target's size, and over them the kept and the dropped
    # elements whose target equals the input at the same place (the model receives it)
    compared: int = 0
    kept_in_input: int = 0
    dropped_in_input: int = 0
