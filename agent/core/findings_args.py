"""A finding from a policy's `record_finding` arguments: a candidate the checks found
(cited by id, with overrides), or one the policy writes itself, whose evidence is the
engine's observations (cited by id) plus the policy's own notes as `model` text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from torch_investigate.agent.core.tool_args import RecordFindingArgs
from torch_investigate.tools.records import Finding, Observation, Stage, merged_evidence
from torch_investigate.tools.taxonomy import OTHER, taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

_OVERRIDABLE = ("category", "title", "status", "confidence", "why", "confirm")


def observations(session: Session, ids: list[str], notes: str) -> list[Observation]:
    """The cited observations (unknown ids are an error) and the policy's notes."""
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
    if notes.strip():
        found.append(Observation(source="model", text=notes.strip()))
    return found


def finding_from_args(session: Session, a: RecordFindingArgs) -> Finding:
    """Raises ValueError (with a message for the caller) when the finding is not valid."""
    extra = observations(session, a.evidence_ids, a.notes)
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
            raise ValueError("cite at least one observation id (evidence_ids) or write notes")
        fields = update | {"evidence": merged_evidence(extra)}
    if "stage" not in fields or a.category:
        fields["stage"] = _stage(session, fields["category"])
    try:
        return Finding.model_validate(fields)
    except ValidationError as e:
        raise ValueError("; ".join(err["msg"] for err in e.errors()[:4])) from None


def _stage(session: Session, category: str) -> Stage:
    if category == OTHER or not taxonomy().has_category(category):
        return session.protocol.current or Stage.SYMPTOM
    return Stage(taxonomy().category(category).stage)


def _location(session: Session, a: RecordFindingArgs) -> dict:
    if not a.file:
        return {}
    rel = session.index.relative(a.file) or a.file
    symbol = a.symbol
    if symbol is None and a.line is not None:
        symbol = session.index.enclosing_symbol(rel, a.line)
    return {"file": rel, "line": a.line, "symbol": symbol}
