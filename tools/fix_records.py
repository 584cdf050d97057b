"""Patches: the source change proposed for a confirmed finding, and what rerunning the
training path with it showed. They reach the user in the report (`Report.patches`), so
they are part of its versioned JSON schema.

A patch is `verified` only when a fresh copy with the patch applied, run with the same
bounded training (same seed, same steps), no longer confirms the finding, confirms no new
defect, and learns again by the criterion the finding's intervention used. Otherwise it
is `unverified` (shown with its numbers) or `dropped` (it did not apply, broke the run,
or brought a new confirmed defect; listed, never offered for `--apply`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

PatchStatus = Literal["verified", "unverified", "dropped"]
# mechanical: a tree-sitter edit the planner wrote; model: a unified diff an LLM proposed
PatchOrigin = Literal["mechanical", "model"]
# verified/unverified/dropped: its patch's status; covered: a verified patch of another
# finding removed it; held: stage 8 while stages 1-7 are open; not_mechanical: no edit
# exists for its category; no_edit: none fit the code
Outcome = Literal[
    "verified", "unverified", "dropped", "covered", "held", "not_mechanical", "no_edit"
]
OUTCOMES: tuple[Outcome, ...] = (
    "verified", "unverified", "dropped", "covered", "held", "not_mechanical", "no_edit",
)  # fmt: skip


class FindingOutcome(BaseModel):
    """What became of one confirmed finding in an `investigate fix` run
    (agent/fix/outcomes.py; bench --patch counts them)."""

    finding: str
    category: str
    stage: int
    root_cause: bool
    outcome: Outcome
    why: str = ""  # unverified/dropped: the kind of reason (agent/fix/verify.py REASON_KINDS)


class PatchRun(BaseModel):
    """One bounded run of the training path: the repo as written (`before`) or patched
    (`after`), with the statistics the runs table states (agent/core/curves.py)."""

    status: str  # completed | stopped | crashed | timeout | ... (RunSummary.status)
    steps: int = 0
    first_loss: float | None = None
    settled_loss: float | None = None  # the median of the last tenth of the steps
    eval_loss: float | None = None  # the last evaluation pass's mean loss, when it evaluated
    # `METRIC name=value` lines the program printed (the benchmark templates print them)
    metrics: dict[str, float] = Field(default_factory=dict)
    losses: list[float | None] = Field(default_factory=list)  # per step, for the plots


class Patch(BaseModel):
    id: str  # P1, P2, ... in the order the findings were patched (root cause first)
    finding: str  # the confirmed finding's id
    category: str
    origin: PatchOrigin
    proposed_by: str = "planner"  # planner, or the model's name
    change: str  # one line for a person: what the edit does, with file:line
    files: list[str] = Field(default_factory=list)  # files the diff touches
    line: int | None = None  # where the change lands in its first file (after patching)
    diff: str  # a unified diff with a/ and b/ prefixes: `git apply` takes it as is
    status: PatchStatus
    verified: bool = False  # status == "verified"
    reason: str = ""  # why it is (not) verified, with the numbers
    criterion: str = ""  # what "learning recovers" meant for this finding
    before: PatchRun | None = None
    after: PatchRun | None = None
    still_confirmed: list[str] = Field(default_factory=list)  # categories the patched run confirms
    new_confirmed: list[str] = Field(default_factory=list)  # ... that the original did not
    tried: int = 1  # candidate edits tried for this finding (this one included)
    applied: bool = False  # `--apply` wrote it into the user's repo
