"""Two checks that see one defect at one place: the second's confirmation upgrades the
first's suspicion (a practice repo standardized each training trace inside its
augmentation branch only; the per-group check suspected it, the evaluation-transfer check
proved it at the same line, and the finding stayed a suspicion)."""

from __future__ import annotations

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.tools.records import Location, Observation, Stage


def _find(ev: Evidence, status: str, text: str):
    return ev.find(
        "preprocessing_mismatch",
        status=status,
        confidence="medium",
        evidence=[Observation(source="runtime", text=text)],
        where=Location(file="bounce.py", line=89, symbol="main"),
        why="w",
        confirm="c",
    )


def test_a_confirmation_at_the_same_place_upgrades_the_suspicion():
    ev = Evidence(Stage.DATA)
    _find(ev, "plausible", "per-group statistics")
    f = _find(ev, "confirmed", "evaluation at chance")
    assert len(ev.findings) == 1 and ev.findings[0] is f
    assert f.status == "confirmed"
    assert [o.text for o in f.evidence] == ["per-group statistics", "evaluation at chance"]


def test_a_suspicion_never_downgrades_a_confirmation():
    ev = Evidence(Stage.DATA)
    _find(ev, "confirmed", "evaluation at chance")
    f = _find(ev, "plausible", "per-group statistics")
    assert f.status == "confirmed" and len(f.evidence) == 1
