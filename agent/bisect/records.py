"""Records of `investigate bisect`: each probed commit with its numbers, the margin
rule that judged it, the first bad commit, and the full investigation of that commit
(the same `Report` as `investigate -f json`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from torch_investigate.tools.records import CommitDetail, Report

BISECT_SCHEMA_VERSION = "1.0"

Metric = Literal["train_loss", "eval_loss"]
# reference: the good commit, run for the numbers the others are compared with.
ProbeStatus = Literal["reference", "good", "bad", "skipped"]
Conclusion = Literal["found", "ambiguous", "no_regression", "not_judged"]
_VERDICTS = {
    "reference": "the good commit (reference)",
    "good": "learns like good",
    "bad": "not learning like good",
    "skipped": "skipped: could not be judged",
}


class LossLevel(BaseModel):
    """Where one run's loss settled, and how much it moved while settled."""

    metric: Metric
    settled: float | None  # None: the loss was not finite
    first: float | None = None  # the first value (training) or first evaluation
    spread: float = 0.0  # standard error of `settled` within the run
    steps: int = 0  # optimizer steps the value covers (training) or was taken at (eval)
    nonfinite: int = 0  # non-finite losses among those steps


class Margin(BaseModel):
    """How far above the good commit's settled loss a commit may settle and still
    count as learning like it: max(3 x spread, 5% of max(|settled|, first - settled))."""

    metric: Metric
    good: float
    spread: float
    floor: float
    margin: float


class Probe(BaseModel):
    """One commit run under the tracer with the shared budget."""

    sha: str
    subject: str
    position: int  # 0 = the good commit, 1.. = the commits after it on the first-parent line
    status: ProbeStatus
    reason: str  # the comparison in words, or why the commit could not be judged
    train: LossLevel | None = None
    eval: LossLevel | None = None
    margin: Margin | None = None  # the rule this commit was judged by (None: not judged)
    symptom: str | None = None  # stage 1's reading of the curve (healthy, flat_loss, ...)
    symptom_evidence: str = ""
    wall_s: float = 0.0

    @computed_field
    @property
    def settled(self) -> float | None:
        """The value the verdict compared (or the training loss when none was compared)."""
        level = self.eval if self.margin and self.margin.metric == "eval_loss" else self.train
        return level.settled if level else None

    @computed_field
    @property
    def verdict(self) -> str:
        return _VERDICTS[self.status]


class BisectReport(BaseModel):
    schema_version: str = BISECT_SCHEMA_VERSION
    tool_version: str = ""
    repo: str
    good: str  # full shas
    bad: str
    command: str  # the training command every commit ran
    command_source: str  # "--cmd", or where it was found at the bad commit
    steps: int
    timeout_s: float
    commits: int  # first-parent commits after good up to bad (good exclusive, bad inclusive)
    rule: str  # the verdict rule in words
    probes: list[Probe]  # in the order they ran
    runs: int  # commits run (the good one included)
    conclusion: Conclusion
    conclusion_text: str
    first_bad: str | None = None
    first_bad_commit: CommitDetail | None = None
    candidates: list[str] = Field(default_factory=list)  # when skips leave several possible
    investigation: Report | None = None  # the full investigation of the first bad commit
    notes: list[str] = Field(default_factory=list)
