"""The tools as a policy meets them: typed results, candidates recorded by id, evidence
cited by the ids the engine issued, experiment ids, malformed calls named as such."""

import shutil
from pathlib import Path

import pytest

from torch_investigate.agent.core.session import Options, Session
from torch_investigate.agent.core.tool_args import ToolError
from torch_investigate.agent.core.toolbox import dispatch

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "not_learning"


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    repo = tmp_path_factory.mktemp("toolbox") / "repo"
    shutil.copytree(EXAMPLE, repo)
    with Session(repo, Options(static_only=True)) as s:
        yield s


def walk_to(session, stage: int) -> None:
    while int(session.protocol.current) < stage:
        dispatch(session, "run_stage_checks", {"stage": int(session.protocol.current)})
        dispatch(
            session,
            "advance_stage",
            {
                "stage": int(session.protocol.current),
                "verdict": "inconclusive",
                "reason": "static only",
            },
        )


def test_stage_checks_issue_an_observation_per_item_and_list_candidates(session):
    walk_to(session, 4)
    result = dispatch(session, "run_stage_checks", {"stage": 4})
    assert result.ok and result.checks is not None
    static = result.checks.items["static"]
    assert static.evidence_id.startswith("E")
    assert session.protocol.evidence.get(static.evidence_id).source == "static"
    assert f"[{static.evidence_id}]" in result.text
    (cand,) = [c for c in result.checks.candidates if c.finding.category == "softmax_before_ce"]
    assert cand.id.startswith("C") and f"- {cand.id} [plausible/" in result.text
    assert all(o.id for o in cand.finding.evidence)

    recorded = dispatch(session, "record_finding", {"candidate": cand.id})
    assert recorded.ok and recorded.id.startswith("F")
    stored = session.protocol.ledger.get(recorded.id)
    assert stored.category == "softmax_before_ce" and stored.file == "model.py"
    assert stored.recorded_by == session.policy_name

    shown = dispatch(session, "show_evidence", {"ids": [cand.finding.evidence[0].id, "E999"]})
    assert "E999: no such observation" in shown.text and "[static]" in shown.text


def test_a_policy_finding_cites_ids_and_notes(session):
    walk_to(session, 4)
    first = session.protocol.evidence.get("E1")
    result = dispatch(session, "record_finding", {
        "category": "softmax_before_ce", "status": "plausible", "confidence": "medium",
        "file": "model.py", "line": 15, "evidence_ids": [first.id], "notes": "F.softmax then CE",
        "why": "CE applies its own log_softmax", "confirm": "return logits and compare",
    })  # fmt: skip
    assert result.ok, result.text
    f = session.protocol.ledger.get(result.id)
    assert f.symbol == "SpiralNet.forward"  # from the index, not the caller
    # the notes are the policy's reasoning, kept with the finding, never an evidence entry
    assert [o.id for o in f.evidence] == [first.id] and f.notes == "F.softmax then CE"
    assert f.stage == 4  # from the taxonomy
    # no id cited: the evidence is the code at its location, read and logged by the engine
    result = dispatch(session, "record_finding", {
        "category": "other", "title": "a softmax in forward", "status": "plausible",
        "confidence": "low", "file": "model.py", "line": 15, "notes": "read it",
        "why": "w", "confirm": "c",
    })  # fmt: skip
    (code,) = session.protocol.ledger.get(result.id).evidence
    assert code.id and code.source == "static" and "softmax" in code.text


@pytest.mark.parametrize(
    "args, needle",
    [
        ({"candidate": "C999"}, "no candidate 'C999'"),
        ({"category": "softmax_before_ce", "status": "plausible"}, "missing confidence"),
        ({"category": "nonsense", "status": "plausible", "confidence": "low", "why": "w",
          "confirm": "c", "notes": "n", "file": "model.py", "line": 15}, "unknown category"),
        ({"category": "other", "title": "t", "status": "plausible", "confidence": "low",
          "why": "w", "confirm": "c", "notes": "only words"}, "give the file and line"),
        ({"category": "softmax_before_ce", "status": "plausible", "confidence": "low",
          "why": "w", "confirm": "c", "evidence_ids": ["E0"]}, "no observation 'E0'"),
        ({"category": "softmax_before_ce", "evidence": [{"source": "runtime", "text": "t"}]},
         "Extra inputs are not permitted"),
    ],
)  # fmt: skip
def test_malformed_findings_are_bad_arguments(session, args, needle):
    result = dispatch(session, "record_finding", args)
    assert result.error == ToolError.bad_arguments and result.error.malformed
    assert needle in result.text


def test_experiments_come_back_with_ids(session):
    args = {"kind": "correctness_check", "description": "print the rows of one batch",
            "distinguishes": "sums to one or not"}  # fmt: skip
    first = dispatch(session, "propose_experiment", args)
    again = dispatch(session, "propose_experiment", {**args, "distinguishes": "again"})
    assert first.id.startswith("X") and again.id == first.id
    assert again.text.startswith(f"already proposed as {first.id}")


def test_a_probe_needs_a_run(session):
    result = dispatch(session, "run_probe", {"code": "print(1)"})
    assert result.error == ToolError.unavailable


def test_unknown_tool(session):
    assert dispatch(session, "rm_rf", {}).error == ToolError.unknown_tool
