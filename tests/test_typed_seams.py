"""Typed seams: what crosses from the checks into the conclusion and the renderers is a
model, not a dict read with its own defaults at each end."""

from torch_investigate.tools.intervention_effect import InterventionEffect
from torch_investigate.tools.records import Observation


def _effect(**kw) -> InterventionEffect:
    base = dict(
        loss_as_written=0.47, loss_with_change=0.2, relative_improvement=0.5745, improved=True
    )
    return InterventionEffect(**{**base, **kw})


def test_an_interventions_effect_is_typed_and_the_json_keeps_its_keys():
    effect = _effect(interventions={"zero_grad_before_backward": True}, same_objective=True)
    obs = Observation(source="intervention", text="with gradients zeroed", effect=effect)
    values = obs.model_dump(mode="json")["values"]
    assert list(values) == [
        "loss_as_written", "loss_with_change", "relative_improvement", "improved",
        "interventions", "train_loader", "same_objective",
    ]  # fmt: skip
    back = Observation.model_validate_json(obs.model_dump_json())
    assert back == obs and back.effect == effect and back.values == {}
    assert obs.reported_values == values


def test_an_effect_without_the_change_writes_only_the_comparison():
    obs = Observation(source="intervention", text="t", effect=_effect(), values={"n": 3})
    assert list(obs.model_dump()["values"]) == [
        "loss_as_written", "loss_with_change", "relative_improvement", "improved", "n"
    ]  # fmt: skip


def test_the_conclusion_and_the_answer_read_the_typed_effect():
    from torch_investigate.agent.checks.merge import contradicted
    from torch_investigate.agent.core.answer import confirming
    from torch_investigate.agent.core.conclude import effect
    from torch_investigate.agent.core.interaction import fix_of
    from torch_investigate.tools.records import Finding, Stage

    def finding(*evidence: Observation) -> Finding:
        return Finding(
            category="missing_zero_grad", stage=Stage.OPTIMIZER, status="confirmed",
            confidence="high", evidence=list(evidence), why="w", confirm="c",
        )  # fmt: skip

    helps = Observation(
        source="intervention", text="helps",
        effect=_effect(interventions={"zero_grad_before_backward": True}, train_loader="t.py:3"),
    )  # fmt: skip
    other = Observation(
        source="intervention", text="a different loss",
        effect=_effect(relative_improvement=0.9, interventions={"strip_prob": True},
                       same_objective=False),
    )  # fmt: skip
    f = finding(helps, other)
    assert effect(f) == 0.5745  # a change of the loss itself is not compared
    assert fix_of(f) == ({"zero_grad_before_backward": True}, "t.py:3")
    assert confirming(f) is helps
    worse = Observation(
        source="intervention", text="worse", effect=_effect(relative_improvement=-0.3)
    )
    assert contradicted(finding(worse)).status == "plausible"
    assert contradicted(f).status == "confirmed"


def test_a_checklist_outcome_is_typed_and_a_passed_item_shows_health():
    """An item's outcome an observation records (run_stage_checks) is read as a model by
    the guardrails and the answer, and the JSON keeps its `item`/`outcome` keys."""
    from torch_investigate.tools.records import ItemCheck

    passed = Observation(
        source="runtime", text="stage 2 item pairing passed", values={"n": 2},
        checked=ItemCheck(item="pairing", outcome="passed"),
    )  # fmt: skip
    failed = passed.model_copy(update={"checked": ItemCheck(item="pairing", outcome="failed")})
    values = passed.model_dump(mode="json")["values"]
    assert values == {"item": "pairing", "outcome": "passed", "n": 2}
    back = Observation.model_validate_json(passed.model_dump_json())
    assert back == passed and back.values == {"n": 2}
    assert passed.reported_values == values
    assert not passed.shows_a_defect and failed.shows_a_defect
    assert Observation(source="runtime", text="a loss curve").shows_a_defect
    assert not Observation(source="static", text="read in the code").shows_a_defect
