"""How two reports about one checklist item combine (checks, probes and the protocol all
use this one rule)."""

from __future__ import annotations

from torch_investigate.tools.records import Outcome


def merge_outcome(
    old: tuple[Outcome, str], outcome: Outcome, detail: str
) -> tuple[Outcome, str] | None:
    """Two checks (or a check and a probe) may speak about one item. A later outcome
    overrides an earlier one only when it says more: a failure is never overwritten by
    a pass, a pass not by a skip; details of the same outcome are joined. None: keep old."""
    old_outcome, old_detail = old
    if old_outcome == "failed" and outcome != "failed":
        return None
    if old_outcome == "passed" and outcome in ("skipped", "not_applicable"):
        return None
    if old_outcome == outcome and old_detail and detail not in old_detail:
        return outcome, f"{old_detail}; {detail}"
    return outcome, detail
