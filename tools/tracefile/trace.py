"""Pydantic models of the trace the in-sandbox tracer writes (tools/trace/serialize.py):
`Trace`, its views for the stage checks, and `load_trace`; the records it holds are
defined in tools/tracefile/records.py and re-exported here.

Everything that crosses back from the repo's process is validated here; analysis
code reads these models, never raw dicts. `load_trace` accepts the JSON file, NaN
and infinities included (a diverging loss is evidence).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import Field

from torch_investigate.tools.tracefile.contract import OMITTED_WHEN
from torch_investigate.tools.tracefile.eval_records import EvalOrder, EvalOutside, EvalValues
from torch_investigate.tools.tracefile.freeze_records import FreezeCalls
from torch_investigate.tools.tracefile.mask_records import DifferenceMask
from torch_investigate.tools.tracefile.position_records import Positions
from torch_investigate.tools.tracefile.probe_records import (
    ClassStream,
    ForwardProbe,
    FutureProbe,
    IndexedRows,
    Neighbours,
    TargetIsInput,
)
from torch_investigate.tools.tracefile.records import (
    Activation,
    AttrTensor,
    Backward,
    Batches,
    BatchNormUse,
    BatchSummary,
    Clip,
    CodeTargets,
    CreatedInForward,
    DropoutInEval,
    ErrorInfo,
    EvalBatch,
    Forward,
    Frame,
    GradStats,
    GraphStats,
    LoaderInfo,
    LossCall,
    LossMask,
    LossOperand,
    LossSite,
    LossTermSum,
    ModelInfo,
    Moments,
    NogradTerm,
    OpSite,
    OptimizerInfo,
    OtherModeSubmodule,
    Parameter,
    ParamGroup,
    PassRows,
    Provenance,
    SchedulerInfo,
    Step,
    TargetOrder,
    TargetStats,
    TensorSummary,
    TraceRecord,
    UpdateStats,
)
from torch_investigate.tools.tracefile.sections import (
    DetailWindow,
    FirstEval,
    InitStat,
    InputNormalizer,
    ProbeResult,
    SubmoduleMode,
    SubsetOverlap,
    TraceWarning,
    TrainModeCounts,
    UpdateIntervals,
)

TRACE_FORMAT_VERSION = 1

__all__ = [
    "OMITTED_WHEN",
    "TRACE_FORMAT_VERSION",
    "Trace",
    "load_trace",
    "Activation",
    "AttrTensor",
    "Backward",
    "Batches",
    "BatchNormUse",
    "BatchSummary",
    "Clip",
    "CreatedInForward",
    "DetailWindow",
    "DropoutInEval",
    "ErrorInfo",
    "EvalBatch",
    "PassRows",
    "FirstEval",
    "Forward",
    "ClassStream",
    "IndexedRows",
    "ForwardProbe",
    "FutureProbe",
    "Neighbours",
    "Frame",
    "GradStats",
    "GraphStats",
    "InitStat",
    "LoaderInfo",
    "LossCall",
    "LossMask",
    "LossOperand",
    "LossSite",
    "ModelInfo",
    "Moments",
    "OpSite",
    "OptimizerInfo",
    "OtherModeSubmodule",
    "Parameter",
    "ParamGroup",
    "ProbeResult",
    "Provenance",
    "SchedulerInfo",
    "Step",
    "SubmoduleMode",
    "CodeTargets",
    "LossTermSum",
    "TargetIsInput",
    "TargetOrder",
    "TargetStats",
    "TensorSummary",
    "TraceRecord",
    "TraceWarning",
    "TrainModeCounts",
    "UpdateIntervals",
    "UpdateStats",
]


class Trace(TraceRecord):
    format_version: int
    status: str  # completed | stopped | crashed
    stop_reason: str = ""
    argv: list[str] = Field(default_factory=list)
    interventions: list[str] = Field(default_factory=list)
    wall_s: float = 0.0
    error: ErrorInfo | None = None
    target_order: TargetOrder = Field(default_factory=TargetOrder)
    target_is_input: TargetIsInput = Field(default_factory=TargetIsInput)
    loss_terms: list[LossTermSum] = Field(default_factory=list)
    code_targets: list[CodeTargets] = Field(default_factory=list)
    loss_sources: list[str] = Field(default_factory=list)  # `file:line` that made each loss
    # of those, the losses that are log-probabilities (a likelihood minimized as it is)
    log_prob_losses: list[str] = Field(default_factory=list)
    # lines of values detached inside the training forward that a loss adds as a term
    cut_terms: list[Frame] = Field(default_factory=list)
    # a loss computed on a no-grad forward's output, added to a backward'ed loss: both lines
    nograd_terms: list[NogradTerm] = Field(default_factory=list)
    # numbers made tensors in the training iteration that a backward'ed loss added:
    # `file:line` -> the values
    number_terms: dict[str, list[float]] = Field(default_factory=dict)
    counts: dict[str, int] = Field(default_factory=dict)
    event_frames: dict[str, Frame | None] = Field(default_factory=dict)
    iterations: list[list[str]] = Field(default_factory=list)
    losses: list[float | None] = Field(default_factory=list)
    step_losses: list[float | None] = Field(default_factory=list)
    step_optimizers: list[int] = Field(default_factory=list)  # optimizer index per step
    holdout_losses: list[float | None] = Field(default_factory=list)
    # the held-out batch's squared difference from its own mean: a constant's best loss
    holdout_level: float | None = None
    # every evaluation loss value of the run, the fast-forwarded part included:
    # (optimizer steps so far, call site, value; a non-finite value as a string)
    eval_losses: list[tuple[int, str, float | str]] = Field(default_factory=list)
    eval_loss_rows: list[int] = Field(default_factory=list)  # per eval_losses call, target rows
    # the program's evaluation accuracy: (optimizer steps so far, matched, compared)
    eval_matches: list[tuple[int, int, int]] = Field(default_factory=list)
    eval_outside: EvalOutside | None = None
    # shuffling loaders an evaluation comparison followed: the order of its labels
    eval_order: list[EvalOrder] = Field(default_factory=list)
    eval_values: EvalValues | None = None
    # the program's hand-written evaluation error: (steps, sum of |prediction - target|, elements)
    eval_errors: list[tuple[int, float, int]] = Field(default_factory=list)
    # per evaluation subtraction, what the target's median misses by (the best constant)
    eval_error_levels: list[tuple[int, float, int]] = Field(default_factory=list)
    # note_call: per training call of the noted helper, mean (prediction - target)^2 / var
    call_fit: list[float] = Field(default_factory=list)
    # grad_check: per checked training call of the helper, [loss, sum of squared finite
    # differences along random directions, sum of squared (difference - autograd)]
    grad_checks: list[tuple[float, float, float]] = Field(default_factory=list)
    # the training loss on evaluation loaders' batches (shadow_eval.py): [steps, sum, rows]
    shadow_eval: list[tuple[int, float, int]] = Field(default_factory=list)
    # the same batches classified by the tracer: [steps, rows right, rows]
    shadow_correct: list[tuple[int, int, int]] = Field(default_factory=list)
    # training batches classified before the step on them: [steps, rows right, rows]
    train_correct: list[tuple[int, int, int]] = Field(default_factory=list)
    # per evaluation `==` of predictions and labels: (steps, matches with the predictions
    # one value up, one value down, compared) and where the first was made
    eval_shifted: list[tuple[int, int, int, int]] = Field(default_factory=list)
    eval_shift_frame: Frame | None = None
    # per evaluation `==` of integer predictions cast from the model's real values
    # (`score.long()`): (steps, matches with those values rounded instead, compared, where
    # the cast was made)
    eval_rounded: list[tuple[int, int, int, Frame | None]] = Field(default_factory=list)
    # `file:line:i:j` of an evaluation helper's call -> per probed call, its value as
    # called, with a perfect prediction and with a perfectly wrong one
    metric_probes: dict[str, list[tuple[float, float, float]]] = Field(default_factory=dict)
    # the same call sites -> (steps taken, the helper's value) of every call
    metric_values: dict[str, list[tuple[int, float]]] = Field(default_factory=dict)
    # "phase:model" -> rows, the variance of each row's mean across rows, the mean variance
    # within a row (a row: a sample, or one channel of it)
    row_offsets: dict[str, dict[str, float]] = Field(default_factory=dict)
    input_normalizer: InputNormalizer | None = None
    subset_overlaps: list[SubsetOverlap] = Field(default_factory=list)
    lrs: list[list[float | None]] = Field(default_factory=list)
    models: list[ModelInfo] = Field(default_factory=list)
    parameters: list[Parameter] = Field(default_factory=list)
    optimizers: list[OptimizerInfo] = Field(default_factory=list)
    schedulers: list[SchedulerInfo] = Field(default_factory=list)
    loaders: list[LoaderInfo] = Field(default_factory=list)
    forwards: list[Forward] = Field(default_factory=list)
    loss_calls: list[LossCall] = Field(default_factory=list)
    loss_sites: list[LossSite] = Field(default_factory=list)
    # losses written by hand: where a batch's target is subtracted from a prediction
    difference_sites: list[Frame] = Field(default_factory=list)
    difference_masks: list[DifferenceMask] = Field(default_factory=list)
    backwards: list[Backward] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    clips: list[Clip] = Field(default_factory=list)
    ops: list[OpSite] = Field(default_factory=list)
    created_in_forward: list[CreatedInForward] = Field(default_factory=list)
    batchnorm: list[BatchNormUse] = Field(default_factory=list)
    attention: list[DropoutInEval] = Field(default_factory=list)
    attr_tensors: list[AttrTensor] = Field(default_factory=list)
    submodule_modes: list[SubmoduleMode] = Field(default_factory=list)
    activations: list[Activation] = Field(default_factory=list)
    batches: Batches = Field(default_factory=Batches)
    probes: dict[str, ForwardProbe] = Field(default_factory=dict)
    future_probe: FutureProbe | None = None
    neighbours: Neighbours | None = None  # tools/trace/token_layout.py
    positions: Positions = Field(default_factory=Positions)  # tools/trace/read_positions.py
    class_streams: dict[str, ClassStream] = Field(default_factory=dict)  # per training loss site
    indexed_rows: list[IndexedRows] = Field(default_factory=list)  # full-graph evaluation rows
    freeze_calls: FreezeCalls = Field(default_factory=FreezeCalls)  # requires_grad_ call paths
    init_stats: list[InitStat] = Field(default_factory=list)
    probe_result: ProbeResult | None = None
    train_mode_counts: TrainModeCounts | None = None
    eval_switch_lines: list[tuple[str, int]] = Field(default_factory=list)  # lines that ran .eval()
    detail_windows: list[DetailWindow] = Field(default_factory=list)
    update_intervals: UpdateIntervals | None = None
    seen_functions: list[str] = Field(default_factory=list)
    loaded_files: list[str] = Field(default_factory=list)  # repo .py files the run imported
    warnings: list[TraceWarning] = Field(default_factory=list)

    # ---- views used by the stage checks -------------------------------------------

    @property
    def n_steps(self) -> int:
        return self.counts.get("step", 0)

    @property
    def ran_training(self) -> bool:
        return self.counts.get("backward", 0) > 0

    @property
    def steps_in_closures(self) -> int:
        """Backward calls made inside optimizer.step(closure) (LBFGS, Lightning)."""
        return self.counts.get("backward_in_step", 0)

    def eval_curve(self) -> list[tuple[int, float]]:
        """Mean evaluation loss per evaluation pass: (optimizer steps before it, mean value).
        A pass is the run of evaluation calls between two optimizer steps."""
        passes: dict[int, list[float]] = {}
        for step, _site, value in self.eval_losses:
            if isinstance(value, float):
                passes.setdefault(step, []).append(value)
        return [(step, sum(v) / len(v)) for step, v in sorted(passes.items())]

    def eval_accuracy_curve(self) -> list[tuple[int, float]]:
        """The share of predictions equal to their labels per evaluation pass, as the
        program's own `==` comparisons in evaluation counted them."""
        return _ratio_per_pass(self.eval_matches)

    def metric_distance_curve(self) -> list[tuple[int, float]]:
        """Per evaluation pass, how far the program's own metric helper is from the value
        it gives a perfect prediction (|perfect - value|, averaged over the pass's calls):
        the first helper whose probes tell a perfect prediction from a wrong one."""
        return next(iter(self.metric_distance_curves().values()), [])

    def metric_distance_curves(self) -> dict[str, list[tuple[int, float]]]:
        """metric_distance_curve for every probed call site (`file:line:i:j`, `#n` for one
        of several values) whose probes tell a perfect prediction from a wrong one: one
        site may score the training rows, another the held-out ones."""
        curves = {}
        for key, probes in self.metric_probes.items():
            told = [(p, w) for _, p, w in probes if p != w]
            values = self.metric_values.get(key, [])
            if not told or not values or not all(_scored(v) for v in probes):
                continue
            perfect = sorted(p for p, _ in told)[len(told) // 2]
            curves[key] = _ratio_per_pass([(s, abs(perfect - v), 1) for s, v in values])
        return curves

    def eval_error_curve(self) -> list[tuple[int, float]]:
        """The mean absolute difference between predictions and targets per evaluation
        pass, as the program's own subtractions in evaluation made them."""
        return _ratio_per_pass(self.eval_errors)

    def shadow_eval_curve(self) -> list[tuple[int, float]]:
        """The program's training loss on its evaluation loaders' batches per pass, as the
        tracer computed it (for a program whose own evaluation measure it cannot read)."""
        return _ratio_per_pass(self.shadow_eval)

    def eval_error_level_curve(self) -> list[tuple[int, float]]:
        """What predicting each evaluation call's target median would miss by, per pass,
        on the same scale as eval_error_curve."""
        return _ratio_per_pass(self.eval_error_levels)

    def train_loss_calls(self) -> list[LossCall]:
        return [c for c in self.loss_calls if c.phase == "train"]

    def eval_loss_calls(self) -> list[LossCall]:
        return [c for c in self.loss_calls if c.phase == "eval"]

    def train_forwards(self) -> list[Forward]:
        return [f for f in self.forwards if f.phase == "train"]

    def eval_forwards(self) -> list[Forward]:
        return [f for f in self.forwards if f.phase == "eval"]

    def curve(self) -> list[float]:
        """Finite loss values per optimizer step (per backward when no step ran)."""
        src = self.step_losses if self.n_steps else self.losses
        return [v for v in src if v is not None and v == v and abs(v) != float("inf")]

    def raw_curve(self) -> list[float | None]:
        return list(self.step_losses if self.n_steps else self.losses)

    def optimizer_curve(self, index: int | None) -> list[float | None]:
        """The losses of the steps one optimizer took (the discriminator's of a GAN's
        two), or the whole curve when only one optimizer steps or none is named."""
        opts = self.step_optimizers[: len(self.step_losses)]
        if index is None or len(set(opts)) < 2 or index not in opts:
            return self.raw_curve()
        return [v for v, o in zip(self.step_losses, opts) if o == index]

    def phases(self) -> list[tuple[int, int]]:
        """The run's training phases as [start, end) ranges of its steps: a phase ends where
        every optimizer that stepped so far never steps again (pretraining, then a probe
        with its own optimizer). Optimizers that take turns (a GAN's two) share one phase."""
        opts = self.step_optimizers[: len(self.step_losses)]
        if not opts:
            return [(0, len(self.raw_curve()))]
        last = {o: i for i, o in enumerate(opts)}
        bounds, start, reach = [], 0, -1
        for i, o in enumerate(opts):
            reach = max(reach, last[o])
            if i == reach:
                bounds.append((start, i + 1))
                start = i + 1
        return bounds

    def param(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def train_loader(self) -> LoaderInfo | None:
        train = [ld for ld in self.loaders if ld.role == "train"]
        return max(train, key=lambda ld: ld.batches) if train else None


def load_trace(path: str | Path) -> Trace:
    with open(path) as fh:
        data = json.load(fh)  # accepts NaN/Infinity, which a diverging run produces
    version = data.get("format_version")
    if version != TRACE_FORMAT_VERSION:
        raise ValueError(
            f"trace format {version} is not supported (expected {TRACE_FORMAT_VERSION})"
        )
    return Trace.model_validate(data)


def _ratio_per_pass(rows) -> list[tuple[int, float]]:
    """(steps, amount, count) rows summed per evaluation pass: amount / count per pass."""
    passes: dict[int, list[float]] = {}
    for step, amount, count in rows:
        acc = passes.setdefault(step, [0.0, 0])
        acc[0] += amount
        acc[1] += count
    return [(step, a / n) for step, (a, n) in sorted(passes.items()) if n]


def _scored(probe: list[float]) -> bool:
    """A probe of a score: the perfect prediction lands on a known end, 0 or 1 of a
    helper in [0, 1], or 0 of an error that is never negative. A helper that merely
    reads the predictions (a temperature fitted to them, a rate of positives) has no
    such end, and its distance from the perfect answer says nothing about quality."""
    own, perfect, wrong = probe
    if all(0.0 <= v <= 1.0 for v in probe):
        return min(perfect, 1.0 - perfect) <= 1e-3
    return abs(perfect) <= 1e-3 and min(probe) >= 0.0 and wrong > perfect
