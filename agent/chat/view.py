"""What the person sees of the session: plain text, so a dumb terminal reads it as well
as a colour one (the console adds style; repo text is never parsed as markup)."""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Any

from torch_investigate.tools.records import Finding

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
    from torch_investigate.agent.core.toolbox import ToolResult

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


# ---- tool calls, as one line each -------------------------------------------------------


def brief_args(arguments: dict[str, Any], limit: int = 48) -> str:
    """`stage=4`, `target='train.py:main'`: a call's arguments, each cut to `limit`."""
    parts = []
    for key, value in arguments.items():
        text = repr(value)
        parts.append(f"{key}={text if len(text) <= limit else text[: limit - 3] + '...'}")
    return ", ".join(parts)


def tool_line(session: Session, name: str, arguments: dict[str, Any], result: ToolResult) -> str:
    """One line per tool call with its short result, e.g.
    `run_stage_checks(stage=4): 6 items, 1 failed, candidates C3` or
    `record_finding -> F1 softmax_before_ce (confirmed)`."""
    call = f"{name}({brief_args(arguments)})"
    if result.refused:
        said = result.text.removeprefix(f"refused ({result.refused}):").strip()
        return f"{call}: refused ({result.refused}): {_first_line(said)}"
    if not result.ok:  # a probe that raised says its error first: "error: NameError: ..."
        return f"{call}: error: {_first_line(result.text.removeprefix('error: '))}"
    if result.checks is not None:
        items = result.checks.items.values()
        failed = sum(r.outcome == "failed" for r in items)
        cands = ", ".join(c.id for c in result.checks.candidates) or "none"
        return f"{call}: {len(items)} items, {failed} failed, candidates {cands}"
    finding = session.protocol.ledger.get(result.id) if result.id else None
    if name in ("record_finding", "update_finding") and finding is not None:
        return f"{name} -> {finding.id} {finding.category} ({finding.status})"
    if name == "read_code":
        shown = sum(1 for ln in result.text.splitlines() if _NUMBERED.match(ln))
        return f"{call}: {shown} lines"
    if name == "run_probe":
        return f"{call} -> {result.id}: {_first_line(result.text.removeprefix('stdout:'))}"
    return f"{call}: {_first_line(result.text)}"


_NUMBERED = re.compile(r"^\s*\d+ \|")


def _first_line(text: str, limit: int = 100) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "(empty)")
    return line if len(line) <= limit else line[: limit - 3] + "..."


# ---- long lines ---------------------------------------------------------------------------


def wrap_text(text: str, width: int) -> str:
    """Every line of `text` within `width`, broken between words; a continuation keeps
    the line's indentation (and a list item's hanging indent). A single word longer than
    the width stays whole."""
    out = []
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        bullet = re.match(r"(\s*(?:[-*•·]|\d+\.|\[\w+\]) )", line)
        hanging = " " * len(bullet.group(1)) if bullet else indent
        out.extend(
            textwrap.wrap(
                line,
                width=width,
                subsequent_indent=hanging,
                break_long_words=False,
                break_on_hyphens=False,
            )  # fmt: skip
        )
    return "\n".join(out)
