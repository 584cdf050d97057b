"""The arguments and results of the tools a policy calls, as pydantic models.

The JSON schema a model sees, the planner's calls and the MCP server's tools all come
from these declarations (see agent/core/toolbox.py). Evidence is cited by the ids the
engine issued (E1, E2, ...); a policy's own words go in `notes`.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from torch_investigate.tools.records import ExperimentKind, Finding, Outcome, category_enum


class Args(BaseModel):
    """A tool's arguments: unknown keys are an error the caller reads, never dropped."""

    model_config = ConfigDict(extra="forbid")


class ReadCodeArgs(Args):
    target: str = Field(description="`model.py`, `model.py:Net.forward` or `train.py:10-60`")


class SearchCodeArgs(Args):
    pattern: str = Field(description="a regular expression or plain text")


class StageArgs(Args):
    stage: int = Field(ge=1, le=8, description="the current stage")


class ShowEvidenceArgs(Args):
    ids: list[str] = Field(min_length=1, max_length=20, description="E3, E12, ...")


class ProbeArgs(Args):
    code: str = Field(description=(
        "in scope: model, args, kwargs, inputs, target, loss_fn(prediction, target), optimizer, "
        "params, torch, nn, F; print or set `result`"
    ))  # fmt: skip
    timeout_s: float = Field(default=60.0, ge=5, le=600)


class RecordFindingArgs(Args):
    candidate: str | None = Field(
        default=None, description="C3 from run_stage_checks; other fields override it"
    )
    category: str | None = Field(
        default=None,
        description="a taxonomy id, or `other` with a title",
        json_schema_extra=category_enum,
    )
    title: str = ""
    status: Literal["confirmed", "plausible", "refuted"] | None = None
    confidence: Literal["high", "medium", "low"] | None = None
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    evidence_ids: list[str] = Field(default_factory=list, description="E4, E9, ...")
    notes: str = Field(default="", description="your reasoning (not evidence)")
    why: str = Field(default="", description="why it breaks learning")
    confirm: str = Field(default="", description="the smallest confirming test")


class UpdateFindingArgs(Args):
    finding: str = Field(description="F2")
    status: Literal["confirmed", "plausible", "refuted"]
    evidence_ids: list[str] = Field(default_factory=list)
    notes: str = ""


class CheckItemArgs(Args):
    item: str = Field(description="checklist item id, e.g. pairing")
    stage: int | None = Field(default=None, ge=1, le=8, description="only for a closed stage")
    outcome: Literal["passed", "failed", "not_applicable"]
    evidence_ids: list[str] = Field(min_length=1)
    detail: str = Field(default="", description="what they show, in one sentence")


class AdvanceArgs(Args):
    verdict: Literal["coherent", "defect", "inconclusive"]
    reason: str


class ExperimentArgs(Args):
    kind: ExperimentKind
    description: str
    distinguishes: str
    information_value: float = Field(default=0.5, ge=0, le=1)
    finding_ids: list[str] = Field(default_factory=list)


class FinishArgs(Args):
    root_cause: str | None = Field(default=None, description="F1, or null")
    explanation: str = ""


# ---- results ------------------------------------------------------------------------


class ToolError(str, Enum):
    """Why a call did not do what was asked."""

    unknown_tool = "unknown_tool"
    bad_arguments = "bad_arguments"  # the schema rejected them, or a finding would be invalid
    refused = "refused"  # a guardrail said no (`rule` names it)
    unavailable = "unavailable"  # nothing can run here (static-only, no command)
    failed = "failed"  # it ran and failed (a probe that raised)

    @property
    def malformed(self) -> bool:
        return self in (ToolError.unknown_tool, ToolError.bad_arguments)


class Candidate(BaseModel):
    id: str  # C1, C2, ... for record_finding(candidate=...)
    finding: Finding


class ItemResult(BaseModel):
    outcome: Outcome
    detail: str
    evidence_id: str


class StageChecks(BaseModel):
    stage: int
    items: dict[str, ItemResult]
    candidates: list[Candidate]


class ToolResult(BaseModel):
    ok: bool
    text: str
    error: ToolError | None = None
    rule: str | None = None  # the guardrail rule of a refusal
    id: str | None = None  # what the call made: F3, X2, E14
    checks: StageChecks | None = None  # run_stage_checks
    current: int | None = None  # advance_stage: the stage now open (None: all closed)

    @property
    def refused(self) -> str | None:
        return self.rule if self.error == ToolError.refused else None
