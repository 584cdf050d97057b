"""The benchmark's terminal output: the per-category table, one line per tool, and
the cases the investigator missed or mislocated."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

from torch_investigate.evals.benchmark.records import (
    BenchResult,
    CaseScore,
    LLMTotals,
    PatchSummary,
    Summary,
)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def summary_line(label: str, s: Summary) -> str:
    if s.mode == "torchfix":
        return (
            f"{label}: {s.cases} buggy cases, detection {_pct(s.detection_recall)} (mapped rules), "
            f"any finding {_pct(s.any_finding_recall)}, findings on clean controls "
            f"{s.false_alarms_clean}, median {s.median_s:.2f} s, p90 {s.p90_s:.2f} s"
        )
    line = f"{s.median_line_distance:g}" if s.median_line_distance is not None else "-"
    text = (
        f"{label}: {s.cases} buggy + {s.clean_controls} clean cases, {s.categories_covered} "
        f"categories | detection {_pct(s.detection_recall)}, confirmed "
        f"{_pct(s.confirmed_recall)}, top-1 {_pct(s.top1)}, symbol {_pct(s.symbol_accuracy)} "
        f"of detected (median line distance {line}) | false alarms {s.false_alarms} "
        f"({s.false_alarms_clean} on clean controls, {s.clean_controls_flagged} of "
        f"{s.clean_controls} flagged; {s.false_alarms_buggy} of another category on buggy cases) | guardrail violations {s.guardrail_violations} | "
        f"errors {s.errors} | median {s.median_s:.1f} s, p90 {s.p90_s:.1f} s"
    )
    return text + (f" | {usage_line(s.llm)}" if s.llm is not None else "")


def usage_line(u: LLMTotals) -> str:
    """The LLM policy's usage: prompt tokens per investigation, requests, cost, stops."""
    cost = f"${u.cost_usd:.4f}" if u.cost_usd is not None else "unknown (no price for the model)"
    stops = ", ".join(f"{k} {n}" for k, n in sorted(u.stop_reasons.items(), key=lambda x: -x[1]))
    return (
        f"{u.investigations} investigations: prompt tokens median {u.median_prompt_tokens:,.0f}, "
        f"p90 {u.p90_prompt_tokens:,.0f} (tool schemas included, about {u.schema_tokens:,} a "
        f"request); {u.requests} requests, {u.prompt_tokens:,} prompt + "
        f"{u.completion_tokens:,} completion tokens; total cost {cost}; stops: {stops or '-'}"
    )


def misses(cases: list[CaseScore]) -> list[CaseScore]:
    """Buggy cases not detected, or detected without the seeded symbol or root cause."""
    return [c for c in cases if c.kind == "buggy" and not (c.detected and c.symbol_hit and c.top1)]


def render(result: BenchResult, console: Console | None = None) -> None:
    # Piped output keeps the table's full width instead of rich's 80-column default.
    console = console or Console(width=None if sys.stdout.isatty() else 160)
    table = Table(title=f"benchmark: {result.suite}", show_lines=False)
    # the baselines' detections: static-only and TorchFix for the planner, the planner
    # for an LLM policy
    extra = [m for m in ("static_only", "torchfix") if m in result.baselines]
    planner = any(row.planner_detected is not None for row in result.categories)
    columns = ["st", "category", "cases", "detected", "confirmed", "top-1", "symbol", "line Δ"]
    columns += [{"static_only": "static"}.get(m, m) for m in extra] + ["planner"] * planner
    for name in columns:
        table.add_column(name, justify="left" if name == "category" else "right")
    for row in result.categories:
        dist = f"{row.median_line_distance:g}" if row.median_line_distance is not None else "-"
        cells = [
            str(row.stage), row.category, str(row.cases), str(row.detected), str(row.confirmed),
            str(row.top1), str(row.symbol), dist,
        ]  # fmt: skip
        cells += [
            str(row.static_detected if m == "static_only" else row.torchfix_detected) for m in extra
        ]
        cells += [str(row.planner_detected)] * planner
        table.add_row(*cells)
    console.print(table)
    main = "investigator" if result.policy == "planner" else result.policy
    console.print(summary_line(main, result.summary), highlight=False, soft_wrap=True)
    for name, s in result.baselines.items():
        name = "planner" if name == "investigator" else name  # the baseline of an LLM policy
        console.print(summary_line(name, s), highlight=False, soft_wrap=True)
    if result.torchfix:
        console.print(f"torchfix: {result.torchfix}", highlight=False)
    if result.investigator:
        console.print(f"investigator: {result.investigator}", highlight=False, soft_wrap=True)
    missed = misses(result.cases)
    if missed:
        console.print(f"\nmissed or mislocated ({len(missed)}):", highlight=False)
        for c in missed:
            console.print(f"  {c.id}: {what_went_wrong(c)}", highlight=False, soft_wrap=True)
    flagged = [c for c in result.cases if c.kind == "clean" and c.false_alarms]
    for c in flagged:
        console.print(f"  clean {c.id}: {'; '.join(c.false_alarms)}", highlight=False)
    if result.patches is not None:
        render_patches(result, console)


def patch_line(p: PatchSummary) -> str:
    origins = ", ".join(f"{k} {n}" for k, n in p.by_origin.items() if n)
    return (
        f"patches: {p.confirmed_root_causes} confirmed root causes of {p.cases} buggy cases | "
        f"patched {p.patched} ({_pct(p.patch_rate)}), verified {p.verified} "
        f"({_pct(p.verified_rate)}){f' ({origins})' if origins else ''} | the seeded category "
        f"verified on {p.seeded_verified} cases | seeded fix's metric recovered {p.matches} of "
        f"{p.measured} measured | clean controls with a patch {p.clean_patched} of {p.clean_controls}"
    )


def findings_line(p: PatchSummary) -> str:
    """Every confirmed finding, not only root causes: what came of it, and why patches
    fell short."""
    words = {
        "verified": "verified", "unverified": "unverified", "dropped": "dropped",
        "covered": "removed by another finding's patch", "held": "held back (stage 8)",
        "not_mechanical": "no patch (not mechanical)", "no_edit": "no patch (no edit fit)",
    }  # fmt: skip
    parts = ", ".join(f"{words[k]} {n}" for k, n in p.outcomes.items())
    line = f"confirmed findings: {p.confirmed_findings} | {parts or 'none'}"
    if p.short_of:
        line += " | fell short: " + ", ".join(f"{k} {n}" for k, n in p.short_of.items())
    return line


def render_patches(result: BenchResult, console: Console) -> None:
    assert result.patches is not None
    console.print(patch_line(result.patches), highlight=False, soft_wrap=True)
    console.print(findings_line(result.patches), highlight=False, soft_wrap=True)
    unpatched = [
        c for c in result.cases
        if c.kind == "buggy" and c.patch is not None and c.patch.root_confirmed and not c.patch.verified
    ]  # fmt: skip
    if unpatched:
        console.print(
            f"\nconfirmed root cause without a verified patch ({len(unpatched)}):", highlight=False
        )
        for c in unpatched:
            p = c.patch
            assert p is not None
            what = f"{p.status}: {p.reason}" if p.patched else "no patch"
            console.print(f"  {c.id}: {what[:220]}", highlight=False, soft_wrap=True)
    off = [c for c in result.cases if c.patch is not None and c.patch.matches is False]
    for c in off:
        assert c.patch is not None
        console.print(
            f"  {c.id}: verified, but the metric with the patch is {c.patch.metric} "
            f"({c.patch.metric_error or 'short of the clean template'})",
            highlight=False, soft_wrap=True,
        )  # fmt: skip


def what_went_wrong(c: CaseScore) -> str:
    """One line: the miss, the truth, and what the report said instead."""
    if not c.detected:
        what = "not detected"
    elif not c.symbol_hit:
        what = "wrong symbol"
    else:
        what = "not the root cause"
    mine = [line for line in c.said if f" {c.category} at " in line]
    if c.error:
        said = f"no report ({c.error})"
    elif c.detected and not c.symbol_hit:
        said = "; ".join(mine[:2]) + (f"; root cause {c.root_cause}" if c.root_cause else "")
    elif c.root_cause:
        said = f"root cause {c.root_cause}"
    else:
        said = f"conclusion {c.conclusion}" + (f"; {'; '.join(c.said[:3])}" if c.said else "")
    return f"{what}; seeded at {c.truth}; report: {said}"
