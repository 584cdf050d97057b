"""Every transition of the protocol state machine, including refusals."""

import pytest
from conftest import record_finding as rec
from conftest import update_finding as upd

from torch_investigate.agent.core.guardrails import Refused
from torch_investigate.agent.core.protocol import Protocol
from torch_investigate.tools.records import Experiment, Finding, NotYet, Observation, Stage

RUNTIME = Observation(source="runtime", text="observed at run time: 3 of 3 steps")
STATIC = Observation(source="static", text="line 12: F.softmax(out) -> CrossEntropyLoss")


def finding(
    category="softmax_before_ce", stage=Stage.LOSS, status="confirmed", evidence=None, **kw
):
    return Finding(
        category=category,
        stage=stage,
        status=status,
        confidence="high",
        file="train.py",
        symbol="train",
        line=12,
        evidence=evidence if evidence is not None else [RUNTIME],
        why="probabilities squash the logits",
        confirm="remove the softmax at train.py:12 and rerun 50 steps",
        **kw,
    )


def pass_all(p: Protocol) -> None:
    for item in p.stages[p.current].checklist:
        p.check(item.id, "passed", "ok")


def walk_coherent(p: Protocol, until: Stage) -> None:
    while p.current is not None and p.current < until:
        pass_all(p)
        p.advance("coherent", "all checks passed")


def test_starts_at_symptom_with_all_stages_open():
    p = Protocol()
    assert p.current == Stage.SYMPTOM
    assert all(r.verdict is None for r in p.stages.values())
    assert [int(s) for s in p.stages] == list(range(1, 9))


def test_advance_refused_while_checklist_pending():
    p = Protocol()
    p.check("training_command", "passed", "train.py")
    with pytest.raises(Refused) as e:
        p.advance("coherent", "looks fine")
    assert e.value.rule == "checklist_incomplete"
    assert "run" in e.value.message
    assert p.current == Stage.SYMPTOM  # nothing changed


def test_inconclusive_needs_reason_and_marks_pending_skipped():
    p = Protocol()
    with pytest.raises(Refused) as e:
        p.advance("inconclusive", "  ")
    assert e.value.rule == "checklist_incomplete"
    p.check("training_command", "passed", "train.py")
    assert p.advance("inconclusive", "no training command found") == Stage.DATA
    items = {i.id: i for i in p.stages[Stage.SYMPTOM].checklist}
    assert items["training_command"].outcome == "passed"
    assert items["run"].outcome == "skipped"
    assert "no training command" in items["run"].detail


def test_coherent_walk_opens_stage_eight():
    p = Protocol()
    walk_coherent(p, Stage.OPTIMIZATION)
    assert p.current == Stage.OPTIMIZATION
    pass_all(p)
    assert p.advance("coherent", "lr sweep fine") is None
    assert p.stages[Stage.OPTIMIZATION].verdict == "coherent"


def test_defect_verdict_needs_confirmed_finding_in_stage():
    p = Protocol()
    walk_coherent(p, Stage.LOSS)
    pass_all(p)
    with pytest.raises(Refused) as e:
        p.advance("defect", "softmax")
    assert e.value.rule == "verdict_contradicts_evidence"
    rec(p, finding())
    assert p.advance("defect", "softmax before CE") == Stage.AUTOGRAD


def test_coherent_refused_with_confirmed_finding_or_failed_item():
    p = Protocol()
    walk_coherent(p, Stage.LOSS)
    pass_all(p)
    rec(p, finding())
    with pytest.raises(Refused) as e:
        p.advance("coherent", "fine")
    assert e.value.rule == "verdict_contradicts_evidence"

    q = Protocol()
    walk_coherent(q, Stage.DATA)
    pass_all(q)
    q.check("leakage", "failed", "40% of eval rows in train")
    with pytest.raises(Refused):
        q.advance("coherent", "fine")


def test_coherent_refused_when_dynamic_item_skipped():
    p = Protocol()
    walk_coherent(p, Stage.FORWARD)
    pass_all(p)
    p.stages[Stage.FORWARD].checklist[0].outcome = "skipped"
    with pytest.raises(Refused) as e:
        p.advance("coherent", "fine")
    assert "inconclusive" in e.value.message


def test_failure_is_not_overwritten_by_later_pass():
    p = Protocol()
    p.check("run", "failed", "crashed")
    p.check("run", "passed", "ran")
    assert p.item("run").outcome == "failed"
    p.check("loss_curve", "passed", "first")
    p.check("loss_curve", "skipped", "later check could not run")
    assert p.item("loss_curve").outcome == "passed"


def test_unknown_item_refused():
    p = Protocol()
    with pytest.raises(Refused) as e:
        p.check("nope", "passed", "x")
    assert e.value.rule == "unknown_item"


def test_stage_eight_not_examined_when_defect_confirmed():
    p = Protocol()
    walk_coherent(p, Stage.LOSS)
    pass_all(p)
    f = rec(p, finding())
    p.advance("defect", "softmax")
    walk_coherent(p, Stage.OPTIMIZATION)
    assert p.current is None
    s8 = p.stages[Stage.OPTIMIZATION]
    assert s8.verdict == "not_examined"
    assert "stage 4" in s8.reason
    assert all(i.outcome == "skipped" for i in s8.checklist)
    assert p.blocking_findings() == [f.id]


def test_stage_eight_not_examined_when_a_stage_inconclusive():
    p = Protocol()
    walk_coherent(p, Stage.MODES)
    p.advance("inconclusive", "no evaluation phase observed")
    assert p.current is None
    assert p.stages[Stage.OPTIMIZATION].verdict == "not_examined"


def test_advance_after_end_refused_and_not_examined_verdict_reserved():
    p = Protocol()
    with pytest.raises(Refused):
        p.advance("not_examined", "skip")
    walk_coherent(p, Stage.OPTIMIZATION)
    pass_all(p)
    p.advance("coherent", "ok")
    with pytest.raises(Refused) as e:
        p.advance("coherent", "again")
    assert e.value.rule == "finish_before_protocol"


def test_finish_refused_while_stage_open_then_allowed():
    p = Protocol()
    with pytest.raises(Refused) as e:
        p.finish(None, "done")
    assert e.value.rule == "finish_before_protocol"
    walk_coherent(p, Stage.OPTIMIZATION)
    pass_all(p)
    p.advance("coherent", "ok")
    p.finish(None, "no defect")
    assert p.finished


def test_finish_with_unknown_or_refuted_root_cause_refused():
    p = Protocol()
    walk_coherent(p, Stage.LOSS)
    pass_all(p)
    f = rec(p, finding(status="plausible", evidence=[STATIC]))
    upd(p, f.id, "refuted", [Observation(source="intervention", text="no change")])
    p.advance("coherent", "refuted")
    walk_coherent(p, Stage.OPTIMIZATION)
    pass_all(p)
    p.advance("coherent", "ok")
    with pytest.raises(Refused):
        p.finish("F99", "x")
    with pytest.raises(Refused):
        p.finish(f.id, "x")


def test_ledger_ids_and_stage_index():
    p = Protocol()
    a = rec(p, finding(status="plausible", evidence=[STATIC]))
    b = rec(p, finding(category="missing_zero_grad", stage=Stage.OPTIMIZER))
    assert (a.id, b.id) == ("F1", "F2")
    assert p.stages[Stage.LOSS].finding_ids == ["F1"]
    assert p.stages[Stage.OPTIMIZER].finding_ids == ["F2"]


def test_update_finding_promotes_with_runtime_evidence():
    p = Protocol()
    f = rec(p, finding(status="plausible", evidence=[STATIC]))
    with pytest.raises(Refused):
        upd(p, f.id, "confirmed", [])
    up = upd(p, f.id, "confirmed", [RUNTIME], confidence="high")
    assert up.status == "confirmed" and len(up.evidence) == 2
    with pytest.raises(Refused):
        upd(p, "F42", "refuted", [])


def test_defer_deduplicates():
    p = Protocol()
    n = NotYet(change="lower the learning rate", kind="lr", reason="F1 open")
    p.defer(n)
    p.defer(n)
    assert len(p.not_yet) == 1


def test_conclusion():
    p = Protocol()
    assert p.conclusion()[0] == "inconclusive"  # nothing ran
    walk_coherent(p, Stage.OPTIMIZATION)
    pass_all(p)
    p.advance("coherent", "ok")
    assert p.conclusion()[0] == "inconclusive"  # training_ran is False
    p.training_ran = True
    assert p.conclusion()[0] == "no_defect_found"

    q = Protocol()
    rec(q, finding())
    assert q.conclusion()[0] == "defects_found"


def test_experiment_refused_then_allowed_after_correctness():
    p = Protocol()
    lr = Experiment(
        kind="lr", description="sweep lr on a fixed batch", distinguishes="too high vs too low"
    )
    with pytest.raises(Refused) as e:
        p.propose_experiment(lr)
    assert e.value.rule == "optimization_before_correctness"
    assert p.experiments == []
    walk_coherent(p, Stage.OPTIMIZATION)
    p.propose_experiment(lr)
    assert [e.model_copy(update={"id": ""}) for e in p.experiments] == [lr]
    assert p.experiments[0].id == "X1"
