"""A finding from a policy's `record_finding` arguments: a candidate the checks found
(cited by id, with overrides), or one the policy writes itself, whose evidence is the
engine's observations (cited by id, or the code at the finding's location, which the
engine reads and logs). The policy's own notes are kept with the finding as its
reasoning, never as evidence: every evidence entry has an id the engine issued."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from torch_investigate.agent.core.tool_args import RecordFindingArgs
from torch_investigate.tools.records import (
    Finding,
    Location,
    Observation,
    Stage,
    merged_evidence,
)
from torch_investigate.tools.taxonomy import OTHER, taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

_OVERRIDABLE = ("category", "title", "status", "confidence", "why", "confirm", "notes")


def observations(session: Session, ids: list[str]) -> list[Observation]:
    """The cited observations; an unknown id is an error."""
    log = session.protocol.evidence
    found, unknown = [], []
    for oid in ids:
        o = log.get(oid)
        (found.append(o) if o is not None else unknown.append(oid))
    if unknown:
        raise ValueError(
            f"no observation {', '.join(map(repr, unknown))} in this investigation "
            f"(ids run from E1 to E{len(log)}; tools print them in brackets)"
        )
    return found


def finding_from_args(session: Session, a: RecordFindingArgs) -> Finding:
    """Raises ValueError (with a message for the caller) when the finding is not valid."""
    extra = observations(session, a.evidence_ids)
    update = {k: getattr(a, k) for k in _OVERRIDABLE if getattr(a, k) not in (None, "")}
    update.update(_location(session, a))
    if a.candidate is not None:
        base = session.candidates.get(a.candidate.strip())
        if base is None:
            raise ValueError(
                f"no candidate {a.candidate!r} (run_stage_checks lists them as C1, C2, ...)"
            )
        fields = base.model_dump() | update
        fields["evidence"] = merged_evidence(base.evidence, extra)
    else:
        missing = [
            k for k in ("category", "status", "confidence", "why", "confirm") if k not in update
        ]
        if missing:
            raise ValueError(f"missing {', '.join(missing)} (or cite a candidate id)")
        if not extra:
            code = _code_read(session, update)
            if code is None:
                raise ValueError(
                    "cite at least one observation id (evidence_ids), or give the file and "
                    "line the finding is about (its code is then the evidence)"
                )
            extra = [code]
        fields = update | {"evidence": merged_evidence(extra)}
    if a.candidate is None or a.category or a.stage is not None:
        fields["stage"] = _stage(session, fields["category"], a.stage)
    try:
        return Finding.model_validate(fields)
    except ValidationError as e:
        raise ValueError("; ".join(err["msg"] for err in e.errors()[:4])) from None


def _stage(session: Session, category: str, named: int | None) -> Stage:
    """A taxonomy category's own stage; `other` goes where the policy says (else the open
    stage; in a review, every stage is closed, so it must say)."""
    if category != OTHER and taxonomy().has_category(category):
        own = Stage(taxonomy().category(category).stage)
        if named is not None and named != own:
            raise ValueError(
                f"{category} belongs to stage {int(own)} ({own.title}), not stage {named}"
            )
        return own
    if named is not None:
        return Stage(named)
    if session.protocol.current is None:
        raise ValueError(
            "every stage is closed: give `stage` (1-8), the stage this finding belongs to"
        )
    return session.protocol.current


def _code_read(session: Session, fields: dict) -> Observation | None:
    """The code at the finding's location, read by the engine and logged as a static
    observation (what a finding without cited ids rests on)."""
    file, line = fields.get("file"), fields.get("line")
    if not file or line is None or session.index.relative(file) is None:
        return None
    lines = session.index.lines(file)
    if not 1 <= line <= len(lines):
        return None
    symbol = fields.get("symbol")
    where = f"{file}:{line}" + (f" ({symbol})" if symbol else "")
    return session.protocol.evidence.issue(Observation(
        source="static", text=f"code at {where}: {lines[line - 1].strip()}",
        where=Location(file=file, line=line, symbol=symbol),
    ))  # fmt: skip


def _location(session: Session, a: RecordFindingArgs) -> dict:
    if not a.file:
        return {}
    rel = session.index.relative(a.file) or a.file
    symbol = a.symbol
    if symbol is None and a.line is not None:
        symbol = session.index.enclosing_symbol(rel, a.line)
    return {"file": rel, "line": a.line, "symbol": symbol}
