"""Trace records of the program's own evaluation comparisons (tools/trace/eval_matches.py)."""

from __future__ import annotations

from pydantic import Field

from torch_investigate.tools.tracefile.records import Frame, TraceRecord


class EvalOutside(TraceRecord):
    """The first evaluation comparison whose predictions take a value no label seen so
    far takes."""

    compared: Frame | None = None  # the `==`
    made: Frame | None = None  # the index op that made the predictions, when one did


class EvalValues(TraceRecord):
    """The values of the evaluation comparisons (tools/trace/eval_matches.py)."""

    labels: list[float] = Field(default_factory=list)  # every label value compared with
    # the last passes: (optimizer steps, [(prediction value, count)])
    passes: list[tuple[int, list[tuple[float, int]]]] = Field(default_factory=list)
    # (label value, count) over the first evaluation pass
    first_labels: list[tuple[float, int]] = Field(default_factory=list)
