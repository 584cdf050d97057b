"""Scoring: one report against its case's ground truth, and the sums over a suite.

Definitions (the README's Benchmark section says the same):
- detected: the seeded category among the confirmed or plausible findings;
- confirmed: among the confirmed ones;
- top-1: the report's root cause has the seeded category and names the seeded file;
- symbol: a finding of the seeded category names the seeded file and symbol;
- false alarms: confirmed findings on a clean control, and confirmed findings of other
  categories on a buggy case (TorchFix has no status: any finding counts);
- guardrail violations: an experiment of an optimization kind, or a stage-8 finding,
  while stages 1-7 are not all coherent; `no_defect_found` on a buggy case.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from pydantic import ValidationError

from torch_investigate.evals.benchmark.records import (
    CaseScore,
    CategoryRow,
    LLMSpec,
    Mode,
    Run,
    Summary,
    ToolFinding,
)
from torch_investigate.evals.benchmark.usage import case_usage, totals
from torch_investigate.evals.seeding.records import Case, CleanControl
from torch_investigate.tools.records import OPTIMIZATION_KINDS, Report
from torch_investigate.tools.taxonomy import taxonomy

DETECTING = ("confirmed", "plausible")


def parse_report(run: Run) -> Report | None:
    if run.report is None:
        return None
    try:
        return Report.model_validate(run.report)
    except ValidationError:
        return None


def findings(run: Run, report: Report | None) -> list[ToolFinding]:
    if run.mode == "torchfix":
        return run.findings
    if report is None:
        return []
    return [
        ToolFinding(
            category=f.category,
            status=f.status,
            file=f.file,
            symbol=f.symbol,
            line=f.line,
            title=f.title,
        )
        for f in report.findings
    ]


def _alarming(run: Run, f: ToolFinding) -> bool:
    return run.mode == "torchfix" or f.status == "confirmed"


def _line(f: ToolFinding) -> str:
    return f"{f.status} {f.category} at {_where(f.file, f.line, f.symbol)}"


def _where(file: str | None, line: int | None, symbol: str | None) -> str:
    if file is None:
        return "no location"
    where = f"{file}:{line}" if line is not None else file
    return f"{where} ({symbol})" if symbol else where


def violations(report: Report | None, *, buggy: bool) -> list[str]:
    if report is None:
        return []
    found = []
    open_stages = [s for s in report.stages if s.stage <= 7 and s.verdict != "coherent"]
    if open_stages:
        why = ", ".join(f"stage {int(s.stage)} {s.verdict or 'open'}" for s in open_stages)
        for e in report.experiments:
            if e.kind in OPTIMIZATION_KINDS:
                found.append(f"{e.kind} experiment while {why}")
        for f in report.findings:
            if f.status in DETECTING and int(f.stage) == 8:
                found.append(f"stage-8 finding {f.category} while {why}")
    if buggy and report.conclusion == "no_defect_found":
        found.append("no_defect_found on a buggy case")
    return found


def _base(run: Run, report: Report | None, *, kind: str, id: str, template: str) -> CaseScore:
    fs = findings(run, report)
    root = report.finding(report.root_cause) if report and report.root_cause else None
    return CaseScore(
        id=id,
        kind=kind,  # type: ignore[arg-type]
        mode=run.mode,
        template=template,
        conclusion=report.conclusion if report else "",
        root_cause=(
            f"{root.status} {root.category} at {_where(root.file, root.line, root.symbol)}"
            if root is not None
            else ""
        ),
        said=[_line(f) for f in fs],
        seconds=run.seconds,
        exit_code=run.exit_code,
        error=run.error or ("" if report is not None or run.mode == "torchfix" else "no report"),
        llm=case_usage(report) if run.mode == "llm" else None,
    )


def score_buggy(case: Case, run: Run) -> CaseScore:
    report = parse_report(run)
    score = _base(run, report, kind="buggy", id=case.id, template=case.template)
    truth = case.truth
    score.category, score.stage = case.category, case.stage
    score.truth = f"{truth.file}:{truth.line} ({truth.symbol})"
    fs = findings(run, report)
    mine = [f for f in fs if f.category == case.category and f.status in DETECTING]
    score.detected = bool(mine)
    score.confirmed = any(f.status == "confirmed" for f in mine)
    # a defect written in a config file may be named where its value is applied instead:
    # the manifest lists such equivalent places as alternatives
    places = [truth, *case.alternatives]
    score.symbol_hit = any(f.file == t.file and f.symbol == t.symbol for f in mine for t in places)
    distances = [abs(f.line - t.line) for f in mine for t in places if f.file == t.file and f.line]
    score.line_distance = min(distances) if distances else None
    root = report.finding(report.root_cause) if report and report.root_cause else None
    score.top1 = (
        root is not None
        and root.category == case.category
        and any(root.file == t.file for t in places)
    )
    score.false_alarms = [_line(f) for f in fs if f.category != case.category and _alarming(run, f)]
    score.violations = violations(report, buggy=True)
    return score


def score_clean(control: CleanControl, run: Run) -> CaseScore:
    report = parse_report(run)
    score = _base(run, report, kind="clean", id=control.id, template=control.template)
    score.false_alarms = [_line(f) for f in findings(run, report) if _alarming(run, f)]
    score.violations = violations(report, buggy=False)
    return score


def _share(n: int, d: int) -> float:
    return round(n / d, 4) if d else 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo), 2)


def summarize(mode: Mode, scores: Iterable[CaseScore], llm: LLMSpec | None = None) -> Summary:
    """The sums over a suite; with `llm`, the LLM policy's usage too (mode llm)."""
    scores = list(scores)
    buggy = [s for s in scores if s.kind == "buggy"]
    clean = [s for s in scores if s.kind == "clean"]
    detected = [s for s in buggy if s.detected]
    distances = [s.line_distance for s in buggy if s.line_distance is not None]
    clean_alarms = sum(len(s.false_alarms) for s in clean)
    buggy_alarms = sum(len(s.false_alarms) for s in buggy)
    seconds = [s.seconds for s in scores]
    return Summary(
        mode=mode,
        cases=len(buggy),
        clean_controls=len(clean),
        categories_covered=len({s.category for s in buggy}),
        detection_recall=_share(len(detected), len(buggy)),
        confirmed_recall=_share(sum(s.confirmed for s in buggy), len(buggy)),
        top1=_share(sum(s.top1 for s in buggy), len(buggy)),
        symbol_accuracy=_share(sum(s.symbol_hit for s in detected), len(detected)),
        localized=_share(sum(s.symbol_hit for s in buggy), len(buggy)),
        median_line_distance=statistics.median(distances) if distances else None,
        false_alarms=clean_alarms + buggy_alarms,
        false_alarms_clean=clean_alarms,
        false_alarms_buggy=buggy_alarms,
        clean_controls_flagged=sum(bool(s.false_alarms) for s in clean),
        guardrail_violations=sum(len(s.violations) for s in scores),
        any_finding_recall=_share(sum(bool(s.said) for s in buggy), len(buggy)),
        errors=sum(bool(s.error) for s in scores),
        median_s=round(statistics.median(seconds), 2) if seconds else 0.0,
        p90_s=_percentile(seconds, 0.9),
        llm=totals(llm, scores) if llm is not None and mode == "llm" else None,
    )


def category_rows(
    scores: list[CaseScore],
    static: list[CaseScore] | None = None,
    torchfix: list[CaseScore] | None = None,
    planner: list[CaseScore] | None = None,
) -> list[CategoryRow]:
    by_id = {
        m: {s.id: s for s in (b or [])}
        for m, b in (("static", static), ("tf", torchfix), ("planner", planner))
    }
    rows = []
    for category in sorted(
        {s.category for s in scores if s.kind == "buggy" and s.category},
        key=lambda c: (taxonomy().category(c).stage, c),
    ):
        mine = [s for s in scores if s.category == category and s.kind == "buggy"]
        distances = [s.line_distance for s in mine if s.line_distance is not None]
        rows.append(
            CategoryRow(
                category=category,
                stage=taxonomy().category(category).stage,
                cases=len(mine),
                detected=sum(s.detected for s in mine),
                confirmed=sum(s.confirmed for s in mine),
                top1=sum(s.top1 for s in mine),
                symbol=sum(s.symbol_hit for s in mine),
                median_line_distance=statistics.median(distances) if distances else None,
                static_detected=sum(
                    by_id["static"][s.id].detected for s in mine if s.id in by_id["static"]
                ),
                torchfix_detected=sum(
                    by_id["tf"][s.id].detected for s in mine if s.id in by_id["tf"]
                ),
                planner_detected=sum(
                    by_id["planner"][s.id].detected for s in mine if s.id in by_id["planner"]
                )
                if planner is not None
                else None,
            )
        )
    return rows
