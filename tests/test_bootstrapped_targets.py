"""A DQN's update (round 03): TD targets built from a target network's output. Stretched
by a broadcast upstream ((B, 1) rewards + (B,) next-state values -> (B, B)) they hold 64
targets per prediction: a broadcast mismatch at the loss, though the broadcast shape is
the target's own. And computed from a model, they give a fixed batch no fixed answer, so
its fit says nothing about capacity (the healthy DQN got a confirmed
insufficient_capacity)."""

from __future__ import annotations

from types import SimpleNamespace

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.capacity import capacity
from torch_investigate.agent.checks.loss_operands import cross_broadcast_losses
from torch_investigate.tools.records import Stage


def _call(input_shape, target_shape, broadcast, from_model=False):
    return SimpleNamespace(
        fn="smooth_l1_loss", frame="agent.py:85", broadcast_shape=broadcast,
        input=SimpleNamespace(shape=input_shape), target=SimpleNamespace(shape=target_shape, from_model=from_model),
    )  # fmt: skip


def _trace(*calls):
    return SimpleNamespace(ran_training=True, train_loss_calls=lambda: list(calls))


def test_predictions_stretched_over_a_larger_target_are_a_broadcast():
    assert cross_broadcast_losses(_trace(_call([64], [64, 64], [64, 64])))
    assert cross_broadcast_losses(_trace(_call([64, 1], [64], [64, 64])))  # as before
    # equal shapes, or a target of one value per prediction, are not
    assert not cross_broadcast_losses(_trace(_call([64], [64], None)))
    assert not cross_broadcast_losses(_trace(_call([64, 3], [64, 3], None)))


def test_a_fixed_batch_cannot_judge_capacity_when_the_targets_come_from_a_model():
    trace = _trace(_call([64], [64], None, from_model=True))
    session = SimpleNamespace(
        options=SimpleNamespace(static_only=False, steps=200),
        baseline=lambda: SimpleNamespace(trace=trace),
        static_findings=[],
    )
    ev = Evidence(Stage.OPTIMIZATION)
    ev.facts.fixed_batch_fits = {1.0: (0.05115, 0.04703, False), 0.1: (0.05115, 0.05, False)}
    capacity(session, ev)
    assert not ev.findings
    outcome, detail = ev.items["capacity"]
    assert outcome == "not_applicable" and "computed from a model's output" in detail
