"""The benchmark's records: one run of a tool on one case, the score of a case, the rows
of the per-category table and the summary. All of it is written as JSON."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from torch_investigate.evals.benchmark.patch_records import PatchScore, PatchSummary

# investigator: the built-in planner; llm: the LLM policy `LLMSpec` describes
# fix: the planner through `investigate fix` (bench --patch): the investigation and its patches
Mode = Literal["investigator", "static_only", "torchfix", "llm", "fix"]
CaseKind = Literal["buggy", "clean"]
LLMMode = Literal["review", "walk"]


class LLMSpec(BaseModel):
    """The LLM policy a benchmark scores (`investigate bench --model`): the flags every
    investigation gets. The API key is never part of it; it stays in the environment."""

    model: str
    mode: LLMMode = "review"
    base_url: str | None = None
    max_steps: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    price_per_1k: str | None = None  # "IN,OUT" USD per 1k tokens
    max_failures: int | None = None
    llm_timeout: float | None = None

    @property
    def label(self) -> str:
        """The runs' name in the cache and the progress lines: `llm-review-gpt-4o-mini`."""
        return f"llm-{self.mode}-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", self.model)

    @property
    def policy(self) -> str:
        """The report's name for the policy: `review:MODEL` or `llm:MODEL`."""
        return f"{'review' if self.mode == 'review' else 'llm'}:{self.model}"

    def identity(self) -> str:
        """What a cached run must share to be reused: the model, the mode and the bounds
        (not the endpoint, which says where the model is served, nor the request timeout)."""
        return self.model_dump_json(exclude={"base_url", "llm_timeout"})

    def argv(self) -> list[str]:
        """The flags of `investigate CASE -f json -q` for this policy."""
        flags = ["--model", self.model, "--mode", self.mode]
        for flag, value in (
            ("--base-url", self.base_url), ("--max-steps", self.max_steps),
            ("--max-tokens", self.max_tokens), ("--max-cost", self.max_cost),
            ("--price-per-1k", self.price_per_1k), ("--max-failures", self.max_failures),
            ("--llm-timeout", self.llm_timeout),
        ):  # fmt: skip
            if value is not None:
                flags += [flag, str(value)]
        return flags


class CaseLLM(BaseModel):
    """What one LLM investigation used, from its report's `llm` field."""

    requests: int
    prompt_tokens: int  # the tool schemas included
    completion_tokens: int
    schema_tokens: int = 0  # about this many of each request's prompt tokens are tool schemas
    cost_usd: float | None = None  # None: the model's price is unknown
    refusals: int = 0
    stop_reason: str = ""  # finished, step limit reached (...), the endpoint failed: ...


class LLMTotals(BaseModel):
    """The LLM policy's usage over a suite: prompt tokens per investigation, total cost."""

    model: str
    mode: LLMMode
    investigations: int  # runs that returned a report with usage
    requests: int
    prompt_tokens: int
    completion_tokens: int
    median_prompt_tokens: float
    p90_prompt_tokens: float
    schema_tokens: int = 0  # the tool schemas' share of each request (included above)
    cost_usd: float | None = None  # total, when the price is known
    stop_reasons: dict[str, int] = Field(default_factory=dict)  # the reason's head -> runs


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
    key: str  # content hash of the case folder (and the LLM policy): else the cache is stale
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
    llm: CaseLLM | None = None  # an LLM run's tokens, requests, cost and stop reason
    patch: PatchScore | None = None  # bench --patch: what `investigate fix` produced


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
    planner_detected: int | None = None  # with --model: the built-in planner on the same cases


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
    llm: LLMTotals | None = None  # the LLM policy's usage (mode llm)


class BenchResult(BaseModel):
    suite: str
    command: str
    policy: str = "planner"  # what `summary` scores: the planner, or `review:MODEL`, `llm:MODEL`
    jobs: int
    wall_s: float
    summary: Summary
    baselines: dict[str, Summary] = Field(default_factory=dict)
    categories: list[CategoryRow] = Field(default_factory=list)
    cases: list[CaseScore] = Field(default_factory=list)
    baseline_cases: dict[str, list[CaseScore]] = Field(default_factory=dict)
    torchfix: str = ""  # version, or why it did not run
    investigator: str = ""  # where the investigator ran from, its commit and whether dirty
    patches: PatchSummary | None = None  # bench --patch: patch and verified rates
