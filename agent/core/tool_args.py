"""The arguments and results of the tools a policy calls, as pydantic models.

The JSON schema a model sees, the planner's calls and the MCP server's tools all come
from these declarations (see agent/core/toolbox.py). Evidence is cited by the ids the
engine issued (E1, E2, ...); a policy's own words go in `notes`.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from torch_investigate.tools.records import ExperimentKind, Finding, Outcome, category_enum
from torch_investigate.tools.taxonomy import taxonomy


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
        "in scope, from the first training call: model, the args/kwargs/inputs it received, "
        "target, loss_fn (the script's own loss function if it takes more than prediction "
        "and target, else loss_fn(prediction, target, *more)), optimizer, params; program "
        "(the training script's module: its functions and globals, e.g. "
        "program.loss_function); torch, nn, F; print or set `result`"
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
    stage: int | None = Field(
        default=None, ge=1, le=8, description="for `other`: the stage it belongs to"
    )
    title: str = ""
    status: Literal["confirmed", "plausible", "refuted"] | None = None
    confidence: Literal["high", "medium", "low"] | None = None
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    evidence_ids: list[str] = Field(default_factory=list, description="E4, E9, ...")
    notes: str = Field(default="", description="your reasoning (kept, never evidence)")
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
    stage: int = Field(ge=1, le=8, description="the open stage, which this closes")
    verdict: Literal["coherent", "defect", "inconclusive"]
    reason: str


def _symptom_ids(schema: dict) -> None:
    schema["enum"] = [s.id for s in taxonomy().symptoms]


class ReviseSymptomArgs(Args):
    symptom: str = Field(description="what the run shows", json_schema_extra=_symptom_ids)
    evidence_ids: list[str] = Field(min_length=1, description="runtime or probe ids")
    notes: str = ""

    @field_validator("symptom")
    @classmethod
    def _known(cls, v: str) -> str:
        if not taxonomy().has_symptom(v):
            known = ", ".join(s.id for s in taxonomy().symptoms)
            raise ValueError(f"unknown symptom {v!r} (one of {known})")
        return v


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
