"""The answer first: what every format says before anything else.

`summarize(report)` decides it once, from the report alone: a confirmed root cause
with the observation that confirms it (its number), or "No defect found", or
"Inconclusive" with the one-line reason; the strongest unconfirmed suspicion is only
ever named as suspected. The session stores it in `Report.summary`; renderers given
an older report without one compute it the same way. The order findings are read in
(`finding_key`) is decided here too: the answer names the first confirmed one.
"""

from __future__ import annotations

import re

from torch_investigate.agent.core.prose import sentence
from torch_investigate.tools.records import (
    Finding,
    Observation,
    Report,
    RunSummary,
    Summary,
    SummaryFinding,
)

NO_DEFECT = "No defect found: every runtime check passed."
_REASON_LIMIT = 240
_STATUS_RANK = {"confirmed": 0, "plausible": 1, "refuted": 2}
_CONFIDENCE_RANK = {"high": 0, "medium": 1, "low": 2}


def _id_key(finding_id: str) -> tuple[int, str]:
    digits = re.sub(r"\D", "", finding_id)
    return (int(digits) if digits else 1 << 30, finding_id)


def finding_key(finding: Finding, root_cause: str | None) -> tuple[int, int, int, int, tuple]:
    """Confirmed before plausible before refuted; inside a status the root cause
    first, then higher confidence, then protocol order (earlier stage first)."""
    return (
        _STATUS_RANK[finding.status],
        0 if finding.id and finding.id == root_cause else 1,
        _CONFIDENCE_RANK[finding.confidence],
        int(finding.stage),
        _id_key(finding.id),
    )


def is_baseline(run: RunSummary) -> bool:
    return not run.interventions


def strongest_suspicion(report: Report) -> Finding | None:
    """The report's root cause when it is only plausible, else the first plausible
    finding in reading order (higher confidence, earlier stage first)."""
    named = report.finding(report.root_cause) if report.root_cause else None
    if named is not None and named.status == "plausible":
        return named
    plausible = [f for f in report.findings if f.status == "plausible"]
    return min(plausible, key=lambda f: finding_key(f, report.root_cause), default=None)


def _cut(text: str, limit: int = _REASON_LIMIT) -> str:
    """One line, cut at a word boundary when too long."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = flat[:limit].rsplit(" ", 1)[0]
    return head.rstrip(",;:") + "…"


def _stop(text: str) -> str:
    return text if text.endswith(("…", ".", "!", "?")) else text + "."


def where(f: Finding | SummaryFinding) -> str:
    """`file:line (symbol)`, as the headline says it."""
    if f.file is None:
        return f"{f.symbol} (file not located)" if f.symbol else "no single file"
    at = f"{f.file}:{f.line}" if f.line is not None else f.file
    return f"{at} ({f.symbol})" if f.symbol else at


def _brief(f: Finding) -> SummaryFinding:
    return SummaryFinding(
        id=f.id, category=f.category, title=f.title, file=f.file, line=f.line,
        symbol=f.symbol, why=f.why, evidence=[o.id for o in f.evidence if o.is_dynamic and o.id],
    )  # fmt: skip


def confirming(f: Finding) -> Observation | None:
    """The observation that confirms a finding as it now stands (`Finding.supporting`: a
    finding a review confirmed is confirmed by what the review cited, never by the
    observation that had refuted it): the intervention that changed the loss most
    (compared on the same loss), else the runtime (or probe) observation, else any
    dynamic one. Among what a review cited, a later observation replaces an earlier one."""
    support = f.supporting()
    changed = [
        o
        for o in support
        if o.source == "intervention"
        and (o.effect is None or (o.effect.improved and o.effect.same_objective))
    ]
    if changed:
        return max(changed, key=lambda o: o.effect.relative_improvement if o.effect else 0.0)
    seen = [o for o in support if o.source in ("runtime", "probe") and o.shows_a_defect]
    if seen:
        return seen[-1] if f.revised_by else seen[0]
    return next((o for o in support if o.is_dynamic), None)


def _not_run_reason(report: Report) -> str | None:
    """Why the training path did not run, or None when it ran."""
    if report.command is None:
        return report.command_note or "no training command was found"
    base = next((r for r in report.runs if is_baseline(r)), None)
    if base is not None and (base.steps > 0 or any(v is not None for v in base.losses)):
        return None
    if not report.runs and report.isolation == "none":
        return "static-only: the training path was not run"
    stage1 = report.stages[0].checklist if report.stages else []
    item = next((c for c in stage1 if c.id == "run" and c.outcome != "passed"), None)
    detail = item.detail if item is not None and item.detail else ""
    detail = detail or (base.message if base is not None else "") or report.conclusion_reason
    if base is not None and base.status == "completed" and detail:
        return f"the training path ran, but {detail}"
    return f"the training path could not run: {detail or 'no reason recorded'}"


def _suspicion(f: Finding | SummaryFinding) -> str:
    return f" Suspected, not confirmed: {f.id} {f.category} at {where(f)} (section C)."


def summarize(report: Report) -> Summary:
    root = report.finding(report.root_cause) if report.root_cause else None
    suspected = strongest_suspicion(report)
    also = _suspicion(suspected) if suspected is not None else ""
    if root is not None and root.status == "confirmed":
        obs = confirming(root)
        return Summary(
            verdict="root_cause",
            headline=f"Root cause: {root.category} at {where(root)}: {sentence(root.title)}",
            root_cause=_brief(root),
            confirming=" ".join(obs.text.split()) if obs is not None else "",
            confirming_id=obs.id if obs is not None else "",
        )
    brief = _brief(suspected) if suspected is not None else None
    confirmed = sorted(
        (f for f in report.findings if f.status == "confirmed"),
        key=lambda f: finding_key(f, report.root_cause),
    )
    if confirmed:
        top = confirmed[0]
        more = f" and {len(confirmed) - 1} more (section B)" if len(confirmed) > 1 else ""
        reason = (
            "the confirmed defects look like side effects of a cause that nothing confirmed"
            if root is not None
            else "no finding is named as the root cause"
        )
        return Summary(
            verdict="defects_found",
            headline=f"Confirmed defect, root cause not confirmed: {top.category} at "
            f"{where(top)}{more}." + also,
            suspected=brief,
            reason=reason,
        )
    if report.conclusion == "no_defect_found":
        return Summary(
            verdict="no_defect_found", headline=NO_DEFECT + also, suspected=brief,
            reason=report.conclusion_reason,
        )  # fmt: skip
    reason = _cut(_not_run_reason(report) or report.conclusion_reason or "no reason recorded")
    return Summary(
        verdict="inconclusive",
        headline=f"Inconclusive: {_stop(reason)}" + also,
        suspected=brief,
        reason=reason,
    )


def lead(summary: Summary) -> str:
    """The headline without its closing "Suspected, not confirmed" sentence."""
    if summary.suspected is None:
        return summary.headline
    return summary.headline.removesuffix(_suspicion(summary.suspected)).strip()


def confirming_label(summary: Summary) -> str:
    """`Confirmed by (E27)`: the label names the observation `confirming` quotes."""
    return f"Confirmed by ({summary.confirming_id})" if summary.confirming_id else "Confirmed by"


def summary_of(report: Report) -> Summary:
    """The report's own summary, or the same one computed for an older report."""
    return report.summary or summarize(report)
