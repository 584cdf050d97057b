"""Each guardrail rule, with the call it refuses and the call it allows."""

import pytest
from conftest import record_finding as rec

from torch_investigate.agent.core import guardrails
from torch_investigate.agent.core.guardrails import Refused, optimization_advice
from torch_investigate.agent.core.protocol import Protocol
from torch_investigate.tools.records import Experiment, Finding, Observation, Stage

RUNTIME = Observation(source="runtime", text="grad None for 4 parameters after backward")
STATIC = Observation(source="static", text="layers kept in a list")


def chk(protocol, finding):
    issued = [protocol.evidence.issue(o) if o.is_dynamic else o for o in finding.evidence]
    guardrails.check_finding(protocol, finding.model_copy(update={"evidence": issued}))


def coherent_until(stage: Stage) -> Protocol:
    p = Protocol()
    while p.current is not None and p.current < stage:
        for item in p.stages[p.current].checklist:
            p.check(item.id, "passed", "ok")
        p.advance("coherent", "ok")
    return p


def make(
    category="unregistered_parameters",
    stage=Stage.AUTOGRAD,
    status="plausible",
    evidence=None,
    confirm="print model.parameters()",
):
    return Finding(
        category=category,
        stage=stage,
        status=status,
        confidence="medium",
        evidence=evidence or [STATIC],
        why="w",
        confirm=confirm,
    )


# optimization_before_correctness -------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["lr", "architecture", "optimizer", "model_size", "training_length"]
)
def test_optimization_experiments_refused_before_correctness(kind):
    p = coherent_until(Stage.MODES)  # stage 7 still open
    exp = Experiment(kind=kind, description="x", distinguishes="y")
    with pytest.raises(Refused) as e:
        guardrails.check_experiment(p, exp)
    assert e.value.rule == "optimization_before_correctness"
    assert "stage 7" in e.value.message


@pytest.mark.parametrize(
    "kind", ["lr", "architecture", "optimizer", "model_size", "training_length"]
)
def test_optimization_experiments_allowed_after_correctness(kind):
    p = coherent_until(Stage.OPTIMIZATION)
    guardrails.check_experiment(p, Experiment(kind=kind, description="x", distinguishes="y"))


def test_correctness_experiments_always_allowed():
    p = Protocol()
    guardrails.check_experiment(
        p,
        Experiment(
            kind="fix_confirmation",
            description="zero grads before each backward",
            distinguishes="a vs b",
        ),
    )


def test_advice_smuggled_in_description_refused():
    p = Protocol()
    exp = Experiment(
        kind="correctness_check",
        description="Try lowering the learning rate to 1e-4",
        distinguishes="x",
    )
    with pytest.raises(Refused) as e:
        guardrails.check_experiment(p, exp)
    assert "learning rate" in e.value.message


@pytest.mark.parametrize(
    "text",
    [
        "Increase the model size to 512 hidden units",
        "switch the optimizer to Adam",
        "lower the lr to 1e-4",
        "train for longer",
        "use a bigger model",
        "add more layers",
        "reduce the batch size",
    ],
)
def test_advice_detector_catches(text):
    assert optimization_advice(text)


@pytest.mark.parametrize(
    "text",
    [
        "remove the softmax at model.py:41 and rerun 50 steps",
        "the scheduler decays the lr to 1e-9 within the first epoch",
        "call optimizer.zero_grad() before loss.backward()",
        "pass model.parameters() to the optimizer after replacing model.fc",
        "step the scheduler once per epoch, after optimizer.step()",
    ],
)
def test_advice_detector_ignores_correctness_fixes(text):
    assert optimization_advice(text) is None


def test_stage_eight_finding_refused_before_correctness():
    p = Protocol()
    with pytest.raises(Refused) as e:
        chk(
            p,
            make(
                category="lr_too_high",
                stage=Stage.OPTIMIZATION,
                status="confirmed",
                evidence=[RUNTIME],
            ),
        )
    assert e.value.rule == "optimization_before_correctness"
    p8 = coherent_until(Stage.OPTIMIZATION)
    chk(
        p8,
        make(
            category="lr_too_high", stage=Stage.OPTIMIZATION, status="confirmed", evidence=[RUNTIME]
        ),
    )


def test_advice_in_confirm_text_refused_before_correctness():
    p = Protocol()
    with pytest.raises(Refused):
        chk(p, make(confirm="increase the learning rate tenfold"))


def test_advice_in_final_explanation_refused_before_correctness():
    p = coherent_until(Stage.MODES)
    p.advance("inconclusive", "no evaluation observed")  # stage 8 -> not examined, current None
    with pytest.raises(Refused) as e:
        guardrails.check_finish(p, None, "Use a larger model.")
    assert e.value.rule == "optimization_before_correctness"
    guardrails.check_finish(p, None, "No evaluation phase ran; rerun with an eval step.")


# confirmed_needs_runtime ----------------------------------------------------------


def test_confirmed_without_runtime_evidence_refused():
    p = Protocol()
    with pytest.raises(Refused) as e:
        chk(p, make(status="confirmed"))
    assert e.value.rule == "confirmed_needs_runtime"


def test_confirmed_with_intervention_evidence_allowed():
    p = Protocol()
    chk(
        p,
        make(
            status="confirmed",
            evidence=[STATIC, Observation(source="intervention", text="loss 0.01 vs 0.69")],
        ),
    )


def test_plausible_with_static_only_allowed():
    guardrails.check_finding(Protocol(), make())


# checklist_incomplete / verdict_contradicts_evidence --------------------------------


def test_checklist_rule_and_inconclusive_escape():
    p = Protocol()
    with pytest.raises(Refused) as e:
        guardrails.check_advance(p, "coherent", "x")
    assert e.value.rule == "checklist_incomplete"
    guardrails.check_advance(p, "inconclusive", "could not run")


def test_verdict_rules():
    p = coherent_until(Stage.AUTOGRAD)
    for item in p.stages[Stage.AUTOGRAD].checklist:
        p.check(item.id, "passed", "ok")
    with pytest.raises(Refused) as e:
        guardrails.check_advance(p, "defect", "x")
    assert e.value.rule == "verdict_contradicts_evidence"
    rec(p, make(status="confirmed", evidence=[RUNTIME]))
    with pytest.raises(Refused):
        guardrails.check_advance(p, "coherent", "x")
    guardrails.check_advance(p, "defect", "x")


# no_defect_without_evidence ------------------------------------------------------


def test_no_defect_claim_needs_a_run():
    p = coherent_until(Stage.OPTIMIZATION)
    with pytest.raises(Refused) as e:
        guardrails.check_no_defect_claim(p)
    assert e.value.rule == "no_defect_without_evidence"
    assert "did not run" in e.value.message


def test_no_defect_claim_needs_dynamic_checks_passed():
    p = coherent_until(Stage.OPTIMIZATION)
    p.training_ran = True
    with pytest.raises(Refused) as e:  # stage 8 items still pending
        guardrails.check_no_defect_claim(p)
    assert "8.lr_sweep" in e.value.message
    for item in p.stages[Stage.OPTIMIZATION].checklist:
        p.check(item.id, "passed", "ok")
    guardrails.check_no_defect_claim(p)


def test_no_defect_claim_refused_when_a_stage_was_inconclusive():
    p = coherent_until(Stage.LOSS)
    p.training_ran = True
    p.advance("inconclusive", "no loss call observed")
    with pytest.raises(Refused) as e:
        guardrails.check_no_defect_claim(p)
    assert "4.output_semantics (skipped)" in e.value.message


# finish_before_protocol ---------------------------------------------------------------


def test_finish_refused_while_open():
    with pytest.raises(Refused) as e:
        guardrails.check_finish(Protocol(), None, "")
    assert e.value.rule == "finish_before_protocol"


# ---- evidence the engine issued ------------------------------------------------------


def test_forged_runtime_evidence_is_refused_even_for_a_plausible_finding():
    p = Protocol()
    forged = Observation(source="runtime", text="I ran it and the loss stayed flat")
    for status in ("confirmed", "plausible"):
        with pytest.raises(Refused) as e:
            p.record_finding(make(status=status, evidence=[forged]))
        assert e.value.rule == "evidence_not_issued"
    assert p.ledger.all() == []


def test_an_issued_observation_changed_afterwards_is_not_genuine():
    p = Protocol()
    issued = p.evidence.issue(RUNTIME)
    tampered = issued.model_copy(update={"text": "grad None for every parameter"})
    with pytest.raises(Refused) as e:
        p.record_finding(make(status="confirmed", evidence=[tampered]))
    assert e.value.rule == "evidence_not_issued"
    p.record_finding(make(status="confirmed", evidence=[issued]))


def test_model_text_supports_only_a_plausible_finding():
    p = Protocol()
    words = Observation(source="model", text="the optimizer clearly misses the head")
    with pytest.raises(Refused) as e:
        p.record_finding(make(status="confirmed", evidence=[words]))
    assert e.value.rule == "confirmed_needs_runtime"
    assert p.record_finding(make(status="plausible", evidence=[words])).status == "plausible"


def test_confirming_or_unconfirming_takes_a_dynamic_observation():
    p = Protocol()
    f = p.record_finding(make(status="plausible", evidence=[STATIC]))
    words = Observation(source="model", text="I am sure now")
    with pytest.raises(Refused):
        p.update_finding(f.id, "confirmed", [words])
    g = p.update_finding(f.id, "confirmed", [p.evidence.issue(RUNTIME)])
    assert g.status == "confirmed"
    with pytest.raises(Refused) as e:
        p.update_finding(f.id, "refuted", [words])
    assert e.value.rule == "confirmed_needs_runtime"
    assert p.ledger.get(f.id).status == "confirmed"


def test_a_runtime_item_is_settled_only_by_a_dynamic_observation():
    p = Protocol()
    p.check("training_command", "passed", "train.py")
    with pytest.raises(Refused):
        p.check("run", "passed", "it ran", [Observation(source="static", text="looks fine")])
    with pytest.raises(Refused) as e:
        p.check("run", "passed", "it ran", [Observation(source="probe", text="made up")])
    assert e.value.rule == "evidence_not_issued"
    probe = p.evidence.issue(Observation(source="probe", text="probe: 12 steps, loss 0.4"))
    p.check("run", "passed", "it ran", [probe])
    assert p.item("run").outcome == "passed"
    assert p.item("run").evidence_ids == [probe.id]


def test_experiments_get_ids_and_repeats_return_the_first():
    p = Protocol()
    f = p.record_finding(make(status="confirmed", evidence=[p.evidence.issue(RUNTIME)]))
    a = p.propose_experiment(Experiment(
        kind="fix_confirmation", description="zero the grads before backward", distinguishes="x",
        finding_ids=[f.id],
    ))  # fmt: skip
    b = p.propose_experiment(Experiment(
        kind="fix_confirmation", description="Call zero_grad() before each backward and rerun",
        distinguishes="y", finding_ids=[f.id],
    ))  # fmt: skip
    c = p.propose_experiment(Experiment(
        kind="correctness_check", description="Zero the grads before backward!", distinguishes="z"
    ))  # fmt: skip
    assert (a.id, b.id, c.id) == ("X1", "X1", "X1")
    assert len(p.experiments) == 1


def test_a_correctness_experiment_is_judged_by_its_kind_not_its_words():
    p = Protocol()
    f = p.record_finding(make(status="confirmed", evidence=[p.evidence.issue(RUNTIME)]))
    text = "use the hand-written SGD update with gradients zeroed before backward"
    p.propose_experiment(Experiment(
        kind="fix_confirmation", description=text, distinguishes="x", finding_ids=[f.id]
    ))  # fmt: skip
    with pytest.raises(Refused):  # the same words with no finding behind them read as advice
        p.propose_experiment(
            Experiment(kind="correctness_check", description=text, distinguishes="y")
        )
    with pytest.raises(Refused):  # an optimization kind is refused whatever it cites
        p.propose_experiment(Experiment(
            kind="optimizer", description="compare", distinguishes="z", finding_ids=[f.id]
        ))  # fmt: skip


def test_a_passed_checklist_item_cannot_confirm_a_defect():
    p = Protocol()
    passed = p.evidence.issue(Observation(
        source="runtime", text="stage 1 item run passed: ran 200 steps",
        values={"item": "run", "outcome": "passed"},
    ))  # fmt: skip
    with pytest.raises(Refused) as e:
        p.record_finding(make(status="confirmed", evidence=[passed]))
    assert e.value.rule == "confirmed_needs_runtime"
