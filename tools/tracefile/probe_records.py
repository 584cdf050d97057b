"""Trace records of the in-process probes: per-sample independence of the first training
forward, whether a next-token model reads later positions, and each training loss
site's classes over the whole run."""

from __future__ import annotations

from pydantic import Field

from torch_investigate.tools.tracefile.records import Frame, TraceRecord


class ForwardProbe(TraceRecord):
    status: str
    reason: str = ""
    batch_size: int | None = None
    inputs_differ: bool | None = None
    output_scale: float | None = None
    change_when_rows_reordered: float | None = None
    cross_sample_error: float | None = None
    cross_sample_relative: float | None = None
    independent: bool | None = None
    ignores_input: bool | None = None
    rows_identical: bool | None = None
    all_zero: bool | None = None  # every output exactly zero
    sample_axis: int | None = None  # the input axis that holds the samples (1: time-first)
    stochastic: bool | None = None  # judged by changing one sample (a forward that samples)
    pairwise: bool | None = None  # one output entry per pair of samples ([B, B]), by design
    # the first half of the batch forwarded alone: its outputs' largest change, relative
    split_relative: float | None = None


class Mixer(TraceRecord):
    module: str  # its name in the model (`transformer.h.0.attn`)
    class_: str = Field(alias="class")


class FutureProbe(TraceRecord):
    """Whether a next-token model's outputs before a position depend on the inputs after
    it (tools/trace/future.py)."""

    status: str
    reason: str = ""
    time_axis: int | None = None
    length: int | None = None
    cut: int | None = None
    moved_before: float | None = None  # relative change of the outputs before the cut
    moved_after: float | None = None
    sees_future: bool | None = None
    model_class: str = ""
    mixers: list[Mixer] = Field(default_factory=list)  # innermost first


class Neighbours(TraceRecord):
    """How much neighbouring ids of a next-token model's training batches depend on each
    other along the time axis and across it (tools/trace/token_layout.py): 1 is
    independence."""

    batches: int = 0
    time_axis: int | None = None
    layout: Frame | None = None  # the line that last laid out the batches' storage
    along: float | None = None
    across: float | None = None
    along_pairs: int = 0
    across_pairs: int = 0


class TargetIsInput(TraceRecord):
    """Training targets compared with what the model received in the same iteration
    (tools/trace/target_order.py)."""

    compared: int = 0
    equal: int = 0  # integer targets equal to integer ids the model received
    frame: Frame | None = None  # the first such loss call
    reconstructed: int = 0  # floating targets equal to the model's input (an autoencoder)
    shifted: int = 0  # targets equal to an input shifted one position (the next token)
    # integer targets equal to an input moved `skip` positions (two or more), not one
    skipped: int = 0
    skip: int = 0
    skip_frame: Frame | None = None  # the first such loss call
    # targets equal, row i for row i + row_offset, to an input moved one position along a
    # later axis, and no row to its own input moved: another sequence's continuation
    rows_moved: int = 0
    row_offset: int = 0
    rows_frame: Frame | None = None  # the first such loss call
    # of next-token targets: the positions the loss scores, those in a padded tail (to
    # its sequence's end, the input and the target are one value: padding predicted
    # after padding), the tails' values and the first loss call with such a tail
    scored: int = 0
    padded: int = 0
    pad_values: list[int] = Field(default_factory=list)
    pad_frame: Frame | None = None


class IndexedRows(TraceRecord):
    """One evaluation pass's rows of a full-graph forward's output, read by a loss by
    index, against the training rows of the same input (tools/trace/indexed_rows.py)."""

    site: str
    rows: int = 0
    overlap: int = 0  # of those, rows a training loss read
    train_rows: int = 0
    train_site: str = "?"  # the training loss call that read the training rows
    train_index_made: Frame | None = None  # the line that made the training rows' index


class ClassStream(TraceRecord):
    """One training loss site's classes over the whole run (tools/trace/class_stream.py)."""

    counts: dict[str, int] = Field(default_factory=dict)  # rows per class, the whole run
    batches: list[tuple[str | None, int]] = Field(default_factory=list)  # (its one class, rows)
    one_per_row: bool = True

    def hists(self) -> list[dict[str, int]]:
        """The batches as histograms: a single class's, or an unknown mixture's (two
        classes, which is all the class-order checks ask of a mixed batch)."""
        return [{c: n} if c is not None else {"?a": 1, "?b": n - 1} for c, n in self.batches]
