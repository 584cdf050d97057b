"""What the LLM policy used on a suite: per case from the report's `llm` field, summed
into prompt tokens per investigation (median, p90), requests, total cost and why the
runs stopped."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable

from torch_investigate.evals.benchmark.records import CaseLLM, CaseScore, LLMSpec, LLMTotals
from torch_investigate.tools.records import Report


def case_usage(report: Report | None) -> CaseLLM | None:
    if report is None or report.llm is None:
        return None
    u = report.llm
    return CaseLLM(
        requests=u.steps, prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens,
        schema_tokens=u.schema_tokens, cost_usd=u.cost_usd, refusals=u.refusals,
        stop_reason=u.stop_reason,
    )  # fmt: skip


def stop_kind(reason: str) -> str:
    """A stop reason without its numbers: `step limit reached (30 model steps, ...)` ->
    `step limit reached`, `the endpoint failed: ...` -> `the endpoint failed`."""
    head = re.split(r" \(|: ", reason, maxsplit=1)[0].strip()
    return head or "unknown"


def _percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo), 1)


def totals(spec: LLMSpec, scores: Iterable[CaseScore]) -> LLMTotals:
    used = [s.llm for s in scores if s.llm is not None]
    prompts = [u.prompt_tokens for u in used]
    costs = [u.cost_usd for u in used if u.cost_usd is not None]
    return LLMTotals(
        model=spec.model,
        mode=spec.mode,
        investigations=len(used),
        requests=sum(u.requests for u in used),
        prompt_tokens=sum(prompts),
        completion_tokens=sum(u.completion_tokens for u in used),
        median_prompt_tokens=float(statistics.median(prompts)) if prompts else 0.0,
        p90_prompt_tokens=_percentile(prompts, 0.9) if prompts else 0.0,
        schema_tokens=max((u.schema_tokens for u in used), default=0),
        cost_usd=round(sum(costs), 6) if costs else None,
        stop_reasons=dict(Counter(stop_kind(u.stop_reason) for u in used)),
    )
