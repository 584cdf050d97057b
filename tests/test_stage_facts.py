"""What a stage establishes is returned with its evidence, and every change of the
protocol's state goes through the protocol (and so its guardrails): checks do not write
the session, the conclusion and the toolbox do not set protocol state."""

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from torch_investigate.agent.checks import base
from torch_investigate.agent.core.facts import StageFacts
from torch_investigate.agent.core.guardrails import Refused
from torch_investigate.agent.core.protocol import Protocol
from torch_investigate.agent.core.session import Session
from torch_investigate.tools.records import Finding, NotYet, Observation, Stage

ROOT = Path(__file__).resolve().parents[1]


def test_a_stages_checks_return_its_facts_and_leave_the_session_alone(monkeypatch):
    def establishes(session, ev):
        ev.facts.symptom = "flat_loss"
        ev.facts.fixed_batch_fits[1.0] = (2.3, 0.1, False)

    monkeypatch.setitem(base.REGISTRY, Stage.SYMPTOM, [("establishes", establishes)])
    earlier = StageFacts(chance=2.3, fixed_batch_fits={0.1: (2.3, 2.2, False)})
    session = SimpleNamespace(facts=earlier, notes=[])
    ev = base.run_checks(session, Stage.SYMPTOM)
    assert ev.facts.symptom == "flat_loss" and ev.facts.chance == 2.3  # earlier facts kept
    assert set(ev.facts.fixed_batch_fits) == {0.1, 1.0}
    assert session.facts is earlier and earlier.symptom is None
    assert set(earlier.fixed_batch_fits) == {0.1}


def test_the_session_records_the_facts_and_the_protocol_checks_the_symptom():
    session = Session.__new__(Session)
    session.protocol, session.facts = Protocol(), StageFacts()
    session.record_facts(StageFacts(symptom="divergence", symptom_evidence="loss 2.3 -> inf"))
    assert session.symptom == session.protocol.symptom == "divergence"
    assert session.facts.symptom_evidence == "loss 2.3 -> inf"
    with pytest.raises(Refused) as refused:
        session.record_facts(StageFacts(symptom="gloomy"))
    assert refused.value.rule == "unknown_symptom"
    assert session.protocol.symptom == "divergence"


def test_a_deferral_is_an_optimization_choice_held_back_by_findings_the_ledger_holds():
    p = Protocol()
    with pytest.raises(Refused) as refused:
        p.defer(NotYet(change="check the labels", kind="data_check", reason="r"))
    assert refused.value.rule == "deferral_unfounded"
    with pytest.raises(Refused):
        p.defer(NotYet(change="lower the lr", kind="lr", reason="F1 open", blocked_by=["F1"]))
    assert p.not_yet == []
    p.ledger.add(
        Finding(
            category="softmax_before_ce", stage=Stage.LOSS, status="plausible",
            confidence="high", why="w", confirm="c",
            evidence=[Observation(source="static", text="softmax before the loss")],
        )
    )  # fmt: skip
    p.defer(NotYet(change="lower the lr", kind="lr", reason="F1 open", blocked_by=["F1"]))
    assert [n.change for n in p.not_yet] == ["lower the lr"]


def _protocol_state() -> set[str]:
    """The attributes the protocol keeps (Protocol.__init__'s `self.X`), and those of the
    records it holds that change as it runs."""
    tree = ast.parse((ROOT / "agent/core/protocol.py").read_text(encoding="utf-8"))
    init = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "__init__"
    )
    own = {
        t.attr
        for n in ast.walk(init)
        if isinstance(n, ast.Assign | ast.AnnAssign)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Attribute)
    }
    return own | {"verdict", "outcome", "untested", "order", "evidence_ids", "checklist"}


def test_nothing_outside_the_protocol_sets_its_state():
    state = _protocol_state()
    assert {"root_cause", "finished", "symptom", "training_ran", "not_yet"} <= state
    found = []
    for path in sorted((ROOT / "agent").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "agent/core/protocol.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = (
                node.targets if isinstance(node, ast.Assign)
                else [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            )  # fmt: skip
            for t in targets:
                if not isinstance(t, ast.Attribute) or t.attr not in state:
                    continue
                if isinstance(t.value, ast.Name) and t.value.id == "self":
                    continue  # an object's own state
                if isinstance(t.value, ast.Attribute) and t.value.attr == "facts":
                    continue  # what a stage established (StageFacts), not the protocol's state
                found.append(f"{rel}:{node.lineno} sets .{t.attr}")
    assert found == []


def test_no_check_writes_the_session():
    """A check reads the session and writes its Evidence (the facts among it), nothing else."""
    found = []
    for path in sorted((ROOT / "agent/checks").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found += [
                    f"{path.relative_to(ROOT).as_posix()}:{node.lineno} sets session.{t.attr}"
                    for t in targets
                    if isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "session"
                ]
    assert found == []


def test_a_revised_symptom_stays_when_a_later_stage_records_its_facts():
    from torch_investigate.agent.core.toolbox import dispatch

    session = Session.__new__(Session)
    session.protocol, session.facts, session.policy_name = Protocol(), StageFacts(), "review"
    session.record_facts(StageFacts(symptom="flat_loss", symptom_evidence="loss 50.1 -> 50.1"))
    seen = session.protocol.evidence.issue(
        Observation(source="probe", text="loss 50.13 -> 49.46 in 300 steps, still falling")
    )
    result = dispatch(
        session, "revise_symptom", {"symptom": "slow_progress", "evidence_ids": [seen.id]}
    )
    assert result.ok, result.text
    assert session.facts.symptom == session.symptom == "slow_progress"
    assert "revised by review from flat_loss" in session.facts.symptom_evidence
    session.record_facts(session.facts.copy())  # what the next stage's checks return
    assert session.protocol.symptom == "slow_progress"
