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


class EvalOrder(TraceRecord):
    """A shuffling (RandomSampler) DataLoader whose pass an evaluation comparison followed
    (tools/trace/eval_order.py): how many comparisons had the labels it yielded, in its
    order; the same labels in another order; or neither."""

    site: str  # the loader's site (LoaderInfo.site)
    yielded: int = 0
    reordered: int = 0
    unmatched: int = 0
    frame: Frame | None = None  # the first reordered comparison
    compared: int = 0  # the labels it compared
