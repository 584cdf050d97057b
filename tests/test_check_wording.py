"""How the checks say numbers (issue 22): a range whose ends agree is one number, a share
of the chance level is a percentage, a change is said by its direction, a learning rate is
'constant' only when it did not change, integer targets too many to list are given by
their range, and the steps a confirming test compares are the steps the reruns made."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.effects import compared_steps
from torch_investigate.agent.checks.numbers import change, of_chance, percent_range
from torch_investigate.agent.core.runs import PROBE_STEPS
from torch_investigate.tools.records import Stage

ROOT = Path(__file__).resolve().parents[1]


def test_a_range_whose_ends_agree_is_one_number():
    assert percent_range(1.0, 1.0) == "100%"
    assert percent_range(0.4, 1.0) == "40-100%"


def test_a_level_against_chance_is_a_share():
    assert of_chance(0.8895, 1.0986) == "81% of the chance level 1.099"


def test_a_change_is_said_by_its_direction():
    assert change(0.1981) == "improves 19.81%"
    assert change(-0.1235) == "worsens 12.35%"
    assert change(-0.03, "falls", "rises") == "rises 3%"
    assert change(0.0) == "does not change"


def test_a_confirming_test_compares_the_steps_the_reruns_made():
    assert compared_steps(SimpleNamespace(options=SimpleNamespace(steps=200))) == PROBE_STEPS
    assert compared_steps(SimpleNamespace(options=SimpleNamespace(steps=60))) == 60
    hard = re.compile(r"compare (the first )?\d+ steps")
    for path in (ROOT / "agent" / "checks").glob("*.py"):
        assert not hard.search(path.read_text()), path.name


def _session(trace) -> SimpleNamespace:
    return SimpleNamespace(
        options=SimpleNamespace(static_only=False, steps=200),
        baseline=lambda: SimpleNamespace(trace=trace),
        failure=None,
        static_findings=[],
    )


@pytest.mark.parametrize(
    ("lrs", "schedulers", "said"),
    [
        ([0.1, 0.1, 0.1], [], "(constant)"),
        ([0.1, 0.1, 0.05], [], "(set by the program, no scheduler: between 0.05 and 0.1)"),
        ([0.1, 0.09, 0.08], [SimpleNamespace(class_="StepLR", steps=2)], "(StepLR)"),
    ],
)
def test_a_learning_rate_is_constant_only_when_it_did_not_change(lrs, schedulers, said):
    from torch_investigate.agent.checks.optimizer_rates import learning_rate

    trace = SimpleNamespace(
        ran_training=True, lrs=[[v] for v in lrs], schedulers=schedulers, n_steps=len(lrs),
        optimizers=[SimpleNamespace(class_="SGD")],
    )  # fmt: skip
    ev = Evidence(Stage.OPTIMIZER)
    learning_rate(_session(trace), ev)
    outcome, detail = ev.items["learning_rate"]
    assert outcome == "passed" and detail.endswith(said), detail


def _operand(**fields) -> SimpleNamespace:
    base = dict(shape=[64], dtype="int64", requires_grad=False, values=None, min=None, max=None)
    return SimpleNamespace(**{**base, **fields})


@pytest.mark.parametrize(
    ("values", "said"),
    [({"0": 30, "2": 34}, "integer targets {0, 2} for 9051 logits"),
     (None, "integer targets in [3, 9050] for 9051 logits")],
)  # fmt: skip
def test_integer_targets_too_many_to_list_are_given_by_their_range(values, said):
    from torch_investigate.agent.checks.data import label_encoding

    call = SimpleNamespace(
        fn="cross_entropy", ignore_index=-100, mask=None, frame=None,
        input=_operand(shape=[64, 9051], dtype="float32", requires_grad=True),
        target=_operand(values=values, min=3.0, max=9050.0),
    )  # fmt: skip
    trace = SimpleNamespace(
        ran_training=True, train_loss_calls=lambda: [call],
        batches=SimpleNamespace(targets={}),
    )  # fmt: skip
    ev = Evidence(Stage.DATA)
    label_encoding(_session(trace), ev)
    assert ev.items["label_encoding"] == ("passed", f"cross_entropy: {said}")


def test_targets_of_calls_whose_class_count_varies_are_read_against_their_own_logits():
    # span starts over padded contexts: 30 positions in one batch, 40 in another; index
    # 37 is in range where it occurs, though not for the first call's 30 logits
    from torch_investigate.agent.checks.data import label_encoding

    def call(n, hi):
        return SimpleNamespace(
            fn="cross_entropy", ignore_index=-100, mask=None, frame=None,
            input=_operand(shape=[16, n], dtype="float32", requires_grad=True),
            target=_operand(values={"0": 8, str(hi): 8}, min=0.0, max=float(hi)),
        )  # fmt: skip

    def outcome(calls):
        trace = SimpleNamespace(
            ran_training=True, train_loss_calls=lambda: calls, train_loader=lambda: None, loaders=[],
            batches=SimpleNamespace(targets={"train": SimpleNamespace(values={"0": 16, "29": 8, "37": 8}, batches=2, min=0.0, max=37.0)}),
        )  # fmt: skip
        ev = Evidence(Stage.DATA)
        label_encoding(_session(trace), ev)
        return ev.items["label_encoding"]

    assert outcome([call(30, 29), call(40, 37)])[0] == "passed"
    assert outcome([call(30, 29), call(40, 37)])[1].endswith("for 30-40 logits")
    failed, detail = outcome([call(30, 37), call(40, 37)])
    assert failed == "failed" and "class index 37 for 30 logits in one call" in detail


def _turns(var_zeroed: bool):
    # two optimizers taking turns (a manual-optimization step): the regression head's is
    # zeroed each iteration, the variance head's only when `var_zeroed`
    reg, var = ["trunk.w", "mean.w"], ["var.w"]
    backwards = []
    for step in range(1, 25):
        before_var = step % 2 == 1
        backwards.append(SimpleNamespace(
            index=step, step=step, backward_in_iteration=1, updates_before=step, frame=None,
            left_over=(reg + var if not var_zeroed else reg) if before_var else ([] if var_zeroed else var),
            zero_grad_since_last_step=var_zeroed if before_var else True,
        ))  # fmt: skip
    return SimpleNamespace(
        ran_training=True, backwards=backwards, step_optimizers=[0, 1] * 13, optimizers=[1, 2],
        parameters=[SimpleNamespace(name=n, optimizer=0) for n in reg] + [SimpleNamespace(name="var.w", optimizer=1)],
        counts={"zero_grad": 24}, event_frames={},
    )  # fmt: skip


def test_an_optimizer_never_reset_is_judged_over_its_own_turns(monkeypatch):
    from torch_investigate.agent.checks import optimizer
    from torch_investigate.tools.records import Observation

    seen = [Observation(source="intervention", text="zeroed")]
    monkeypatch.setattr(
        optimizer,
        "intervene",
        lambda *a, **k: SimpleNamespace(
            observation=lambda: seen[0], iv_final=1.0, base_final=2.0  # zeroing helped
        ),
    )
    monkeypatch.setattr(optimizer, "first_static_location", lambda *a: None)
    monkeypatch.setattr(optimizer, "where", lambda *a: None)
    ev = Evidence(Stage.OPTIMIZER)
    optimizer.gradient_reset(_session(_turns(var_zeroed=False)), ev)
    outcome, detail = ev.items["gradient_reset"]
    assert (
        outcome == "failed"
        and detail.startswith("at 12 of 12 iterations")
        and "(1 parameters)" in detail
    )
    ev = Evidence(Stage.OPTIMIZER)
    optimizer.gradient_reset(_session(_turns(var_zeroed=True)), ev)
    assert ev.items["gradient_reset"][0] == "passed"
