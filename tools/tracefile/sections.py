"""The trace sections the stage checks read as plain dicts, typed: one TypedDict per kind
(a submodule's mode, an init statistic, a probe's result, a warning, a loss mask, ...)."""

from __future__ import annotations

from typing_extensions import TypedDict

from torch_investigate.tools.tracefile.records import Frame


class SubmoduleMode(TypedDict):
    """A submodule called with grad disabled inside a training forward."""

    kind: str  # "grad_disabled"
    module: str
    frame: Frame | None
    calls: int


class _InitStat(TypedDict):
    name: str
    shape: list[int]
    std: float
    abs_mean: float
    requires_grad: bool


class InitStat(_InitStat, total=False):
    """Scale and symmetry of a weight at the first forward (and, for a weight that started
    symmetric, at the end of the run)."""

    identical_rows: bool
    end_std: float
    end_rows_moved: int  # rows that differ from their start by the end of the run
    end_distinct_moved: int  # distinct values among them


class InputNormalizer(TypedDict):
    """A normalization layer the training batch goes through as is (the model scales its
    own inputs)."""

    module: str
    frame: Frame | None


class SubsetOverlap(TypedDict):
    """A training loader and another loader reading Subsets of the same dataset."""

    train: str  # loader sites
    eval: str
    train_n: int
    eval_n: int
    overlap: int  # samples both read


class ProbeResult(TypedDict):
    """What a caller's probe snippet printed and set (tools/trace/user_probe.py)."""

    stdout: str
    result: str | None
    error: str | None
    loss_fn: str | None  # the script's own loss function, when it was `loss_fn`


class FirstEval(TypedDict):
    step: int
    frame: Frame | None
    switched_at: Frame | None  # the program's line that switched the model to eval mode


class TrainModeCounts(TypedDict):
    """module.training of every forward a backward followed, over the whole run."""

    train: int
    eval: int
    first_eval: FirstEval | None
    # calls that switched a module back to train mode after it had been switched to eval
    # (by the program or a framework): something in the run does switch back
    back_to_train: int


class DetailWindow(TypedDict):
    """A later training phase that got its own detailed steps."""

    from_step: int
    reason: str


class UpdateIntervals(TypedDict):
    """Backward-to-backward intervals in which the parameters changed."""

    observed: int
    changed: int
    nonfinite: int  # unchanged intervals in which some parameter was non-finite


class _TraceWarning(TypedDict):
    category: str
    message: str


class TraceWarning(_TraceWarning, total=False):
    """A Python warning of the program, an intervention's note, or a tracer error."""

    file: str
    line: int
