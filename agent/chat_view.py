"""What the person sees of the session: plain text, so a dumb terminal reads it as well
as a colour one (the console adds style; repo text is never parsed as markup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.tools.records import Finding

if TYPE_CHECKING:
    from torch_investigate.agent.session import Session

MARK = {
    "passed": "PASS",
    "failed": "FAIL",
    "skipped": "SKIP",
    "not_applicable": "n/a",
    "pending": "....",
}


def where(f: Finding) -> str:
    if not f.file:
        return "no single location"
    loc = f"{f.file}:{f.line}" if f.line else f.file
    return f"{loc} ({f.symbol})" if f.symbol else loc


def headline(session: Session) -> str:
    p = session.protocol
    if p.finished:
        root = p.ledger.get(p.root_cause) if p.root_cause else None
        cause = (
            f"root cause {root.id} {root.category} at {where(root)}" if root else "no root cause"
        )
        return f"The investigation is finished: {cause}. /report shows the report."
    if p.current is None:
        return "Every stage is closed."
    return f"Stage {int(p.current)} of 8: {p.current.title} (open)."


def stage_view(session: Session) -> str:
    p = session.protocol
    lines = [headline(session)]
    for stage, result in p.stages.items():
        if result.verdict is not None:
            lines.append(f"  {int(stage)} {stage.title}: {result.verdict}: {result.reason[:120]}")
    if p.current is not None:
        lines.append(f"Checklist of stage {int(p.current)}:")
        for item in p.stages[p.current].checklist:
            detail = f": {item.detail[:140]}" if item.detail else ""
            kind = "runtime" if item.dynamic else "static"
            lines.append(f"  [{MARK[item.outcome]}] {item.id} ({kind}) {item.description}{detail}")
    return "\n".join(lines)


def findings_view(session: Session) -> str:
    findings = session.protocol.ledger.all()
    if not findings:
        return "No findings yet."
    return "\n".join(
        f"{f.id} [{f.status}, {f.confidence}] stage {int(f.stage)} {f.category} at {where(f)}"
        for f in findings
    )


def evidence_view(f: Finding) -> str:
    lines = [
        f"{f.id}: {f.title}",
        f"  category {f.category}, stage {int(f.stage)} ({f.stage.title}), {f.status}, "
        f"confidence {f.confidence}",
        f"  where: {where(f)}",
        "  evidence:",
        *(f"    [{o.source}] {o.text}" for o in f.evidence),
        f"  why: {f.why}",
        f"  smallest confirming test: {f.confirm}",
    ]
    return "\n".join(lines)
