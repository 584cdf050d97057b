"""The benchmark's records: one run of a tool on one case, the score of a case, the rows
of the per-category table and the summary. All of it is written as JSON."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Mode = Literal["investigator", "static_only", "torchfix"]
CaseKind = Literal["buggy", "clean"]


class ToolFinding(BaseModel):
    """One finding as the scorer needs it, whatever tool made it."""

    category: str  # a taxonomy id, `other`, or `unmapped:<rule>` for a TorchFix rule
    status: str = "plausible"  # confirmed | plausible | refuted
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    title: str = ""


class Run(BaseModel):
    """One tool run on one case folder, as cached between resumed runs."""

    mode: Mode
    case_id: str
    key: str  # content hash of the case folder: a cached run of other content is stale
    exit_code: int | None
    seconds: float
    error: str = ""  # why no report came back
    report: dict[str, Any] | None = None  # the investigator's JSON report
    findings: list[ToolFinding] = Field(default_factory=list)  # TorchFix's, mapped


class CaseScore(BaseModel):
    id: str
    kind: CaseKind
    mode: Mode
    template: str
    category: str | None = None  # the seeded category (buggy cases)
    stage: int | None = None
    truth: str = ""  # `file:line (symbol)`
    detected: bool = False  # the category among confirmed or plausible findings
    confirmed: bool = False
    top1: bool = False  # root cause: the category, in the seeded file
    symbol_hit: bool = False  # a finding of the category names the seeded symbol
    line_distance: int | None = None  # nearest such finding in the seeded file
    false_alarms: list[str] = Field(default_factory=list)  # confirmed, other categories
    violations: list[str] = Field(default_factory=list)
    conclusion: str = ""
    root_cause: str = ""  # `category at file:line (symbol)`, what the report blamed
    said: list[str] = Field(default_factory=list)  # the report's findings, one line each
    seconds: float = 0.0
    exit_code: int | None = None
    error: str = ""


class CategoryRow(BaseModel):
    category: str
    stage: int
    cases: int
    detected: int
    confirmed: int
    top1: int
    symbol: int
    median_line_distance: float | None = None
    static_detected: int = 0
    torchfix_detected: int = 0


class Summary(BaseModel):
    mode: Mode
    cases: int  # buggy cases
    clean_controls: int
    categories_covered: int  # categories with at least one buggy case
    detection_recall: float
    confirmed_recall: float
    top1: float
    symbol_accuracy: float  # of detected cases, the share naming the seeded symbol
    localized: float  # of all buggy cases, detected with the seeded symbol
    median_line_distance: float | None
    false_alarms: int  # false_alarms_clean + false_alarms_buggy
    false_alarms_clean: int  # confirmed findings on clean controls
    false_alarms_buggy: int  # confirmed findings of other categories on buggy cases
    clean_controls_flagged: int  # clean controls with at least one confirmed finding
    guardrail_violations: int
    any_finding_recall: float  # buggy cases with any finding at all (TorchFix's reading)
    errors: int  # runs that returned no report
    median_s: float
    p90_s: float


class BenchResult(BaseModel):
    suite: str
    command: str
    jobs: int
    wall_s: float
    summary: Summary
    baselines: dict[str, Summary] = Field(default_factory=dict)
    categories: list[CategoryRow] = Field(default_factory=list)
    cases: list[CaseScore] = Field(default_factory=list)
    baseline_cases: dict[str, list[CaseScore]] = Field(default_factory=dict)
    torchfix: str = ""  # version, or why it did not run
    investigator: str = ""  # where the investigator ran from, its commit and whether dirty
