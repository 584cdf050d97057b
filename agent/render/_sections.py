"""What every human-facing format says, decided once: finding order, the A-E
sections and the honest sentences for what is missing.

Markdown and HTML both read from `ReportView`, so the two can never disagree on
which finding is the root cause, which section is empty, or why stage 8 was not
examined.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_investigate.agent.core.answer import finding_key, is_baseline, strongest_suspicion
from torch_investigate.agent.core.curves import final_level, first_recorded, window
from torch_investigate.agent.render._format import sentence
from torch_investigate.tools.records import (
    Experiment,
    Finding,
    NotYet,
    Report,
    RunSummary,
    Stage,
    StageResult,
)
from torch_investigate.tools.taxonomy import OTHER, taxonomy

ISOLATION_TEXT = {
    "bwrap": "bubblewrap sandbox with no network",
    "unshare": "network namespace (unshare) with no network",
    "socket-guard": "socket guard only (no namespace was available; network calls are blocked in-process)",
    "none": "none: nothing from the repo was executed (static analysis only)",
}


def category_title(category: str) -> str:
    if category == OTHER:
        return "outside the taxonomy"
    tax = taxonomy()
    return tax.category(category).title if tax.has_category(category) else category


def symptom_title(symptom: str | None) -> str:
    if symptom is None:
        return ""
    return next((s.title for s in taxonomy().symptoms if s.id == symptom), "")


def where_text(finding: Finding) -> str:
    """`file:line (symbol)`, or an explicit sentence when the finding has no file."""
    loc = finding.location
    if loc is not None:
        return str(loc)
    if finding.symbol:
        return f"{finding.symbol} (file not located)"
    return "not located in a file (a property of the whole training path)"


def stage_reason(stage: StageResult) -> str:
    """The stage's own reason, or a derived one so no verdict stands unexplained."""
    if stage.reason:
        return stage.reason
    if stage.verdict == "not_examined":
        if stage.stage == Stage.OPTIMIZATION:
            return (
                "not examined: optimization choices are only inspected after stages 1-7 "
                "are coherent"
            )
        return "not examined"
    if stage.verdict is None:
        return "still open: its checklist is not complete"
    return "no reason recorded"


def experiment_key(exp: Experiment) -> tuple[int, int, float]:
    # order 0 means "not ranked yet": after every ranked experiment, then by value.
    return (1 if exp.order <= 0 else 0, exp.order, -exp.information_value)


def total_seconds(report: Report) -> float | None:
    if "total" in report.timings:
        return report.timings["total"]
    return sum(report.timings.values()) if report.timings else None


@dataclass(frozen=True)
class RunNumbers:
    """One run's numbers as the findings state them (`agent.curves`)."""

    first: float | None
    settled: float | None
    compared_steps: int | None  # a run with an intervention: the steps compared
    baseline_settled: float | None  # the run as written over those steps


def run_numbers(report: Report, run: RunSummary) -> RunNumbers:
    """The run's own statistics, or the same ones computed for an older report."""
    if run.first_loss is not None or run.settled_loss is not None:
        return RunNumbers(
            run.first_loss, run.settled_loss, run.compared_steps, run.baseline_settled_loss
        )
    first, settled = first_recorded(run.losses), final_level(run.losses)
    base = next((r for r in report.runs if is_baseline(r)), None)
    if base is not None and base is not run and base.losses and run.losses:
        w = window(base.losses, run.losses)
        return RunNumbers(first, w.settled, w.steps, w.base_settled)
    return RunNumbers(first, settled, None, None)


@dataclass(frozen=True)
class ReportView:
    """The report regrouped for reading. Not a record: never serialized."""

    report: Report
    findings: list[Finding]  # in reading order
    root: Finding | None  # a confirmed root cause only: section A never holds a suspicion
    suspected: Finding | None  # the report's root cause when nothing confirmed it (section C)
    root_statement: str  # the A section body when there is no root finding, else the explanation
    confirmed: list[Finding]
    plausible: list[Finding]
    refuted: list[Finding]
    experiments: list[Experiment]
    not_yet: list[NotYet]


def _sentence(text: str) -> str:
    flat = sentence(text)
    return flat[:1].upper() + flat[1:]


def _stage_ranges(numbers: list[int]) -> str:
    """[2, 3, 4, 7] -> "2-4, 7": consecutive stages that share a reason read as one."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][-1] + 1:
            spans[-1].append(n)
        else:
            spans.append([n])
    return ", ".join(f"{s[0]}-{s[-1]}" if len(s) > 1 else str(s[0]) for s in spans)


def _open_stages(report: Report) -> str:
    by_reason: dict[str, list[int]] = {}
    for s in report.stages:
        if s.verdict in ("inconclusive", None):
            by_reason.setdefault(stage_reason(s), []).append(s.stage.value)
    if not by_reason:
        return ""
    parts = [f"{_stage_ranges(nums)} ({reason})" for reason, nums in by_reason.items()]
    return " Stages without a verdict of coherent or defect: " + "; ".join(parts) + "."


def _plausible_note(report: Report) -> str:
    ids = [f.id for f in report.findings if f.status == "plausible"]
    return f" Plausible but unproven: {', '.join(ids)} (section C)." if ids else ""


def _suspected_note(suspected: Finding | None) -> str:
    if suspected is None:
        return ""
    return (
        f" Suspected, not confirmed: {suspected.id} ({suspected.category}) at "
        f"{where_text(suspected)} (section C)."
    )


def _root_statement(report: Report, root: Finding | None) -> str:
    if root is not None:
        return report.root_cause_explanation or root.why
    named = report.finding(report.root_cause) if report.root_cause else None
    if report.root_cause and named is None:
        missing = (
            f"The report names {report.root_cause} as the root cause, but no finding has that id."
        )
        return f"{missing} {report.root_cause_explanation}".strip()
    if named is not None and report.conclusion == "defects_found":
        return (
            f"No confirmed root cause: the confirmed defects (section B) look like side effects "
            f"of {named.id} ({named.category}), which nothing confirmed at run time."
            + _suspected_note(named)
        )
    reason = report.conclusion_reason or report.root_cause_explanation
    because = f" {_sentence(reason)}" if reason else ""
    if report.conclusion == "inconclusive":
        return (
            "No root cause can be named: the investigation is inconclusive."
            + because
            + _open_stages(report)
            + _plausible_note(report)
        )
    if report.conclusion == "no_defect_found":
        checks = [c for s in report.stages for c in s.checklist]
        passed = [c for c in checks if c.outcome == "passed"]
        dynamic = [c for c in passed if c.dynamic]
        text = (
            f"None: no defect was found. {len(passed)} of {len(checks)} checks passed, "
            f"{len(dynamic)} of them on runtime evidence from the repo's own training path "
            "(listed under Stages)."
        )
        if not dynamic:
            text += (
                " None of the passed checks ran the code, so this is not a clean bill of health."
            )
        return text + because + _suspected_note(strongest_suspicion(report))
    return (
        "Defects were found, but none is singled out as the root cause."
        + because
        + _plausible_note(report)
    )


def view(report: Report) -> ReportView:
    ordered = sorted(report.findings, key=lambda f: finding_key(f, report.root_cause))
    named = report.finding(report.root_cause) if report.root_cause else None
    root = named if named is not None and named.status == "confirmed" else None
    return ReportView(
        report=report,
        findings=ordered,
        root=root,
        suspected=named if named is not None and named.status == "plausible" else None,
        root_statement=_root_statement(report, root),
        confirmed=[f for f in ordered if f.status == "confirmed"],
        plausible=[f for f in ordered if f.status == "plausible"],
        refuted=[f for f in ordered if f.status == "refuted"],
        experiments=sorted(report.experiments, key=experiment_key),
        not_yet=list(report.not_yet),
    )
