"""Two healthy public repos got confirmed findings from numbers that were only scale or
chance (pytorch/examples): a VAE whose summed loss makes gradient norms of 1e4 while it
learns, and a sine predictor evaluated on three sequences whose mean differs from the
training set's by the amount three draws differ. A finding needs what the numbers do to
learning, or a difference beyond what the number of rows shows by chance."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.input_moments import chance_bounds, transform_like
from torch_investigate.agent.checks.optimization import gradient_flow
from torch_investigate.tools.records import Stage


def test_a_shift_three_test_rows_show_by_chance_is_not_a_transform():
    signed = [0.56 + 0.001 * i for i in range(64)]  # every feature one way, correlated
    rs = [0.65] * 64
    assert transform_like(signed, rs, n_train=2220, n_eval=9) is None
    assert transform_like(signed, rs, n_train=2220, n_eval=500) is not None
    # the bounds narrow as the rows grow, and a large shift stays a transform with few rows
    assert chance_bounds(2220, 9, 1.0)[0] > chance_bounds(2220, 500, 1.0)[0]
    assert transform_like([3.0] * 64, [1.0] * 64, n_train=2220, n_eval=9) is not None


def _weights(*, norm: float, step: float, nonfinite: int = 0) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(
            name=f"fc{i}.weight", shape=[8, 8], registered=True,
            grad=SimpleNamespace(mean_norm=norm, max_norm=norm, nonfinite=nonfinite),
            update=SimpleNamespace(mean_ratio=step),
        )  # fmt: skip
        for i in range(3)
    ]


def _run(weights, symptom: str | None) -> Evidence:
    trace = SimpleNamespace(ran_training=True, parameters=weights, models=[])
    session = SimpleNamespace(
        options=SimpleNamespace(static_only=False, steps=200),
        baseline=lambda: SimpleNamespace(trace=trace),
        static_findings=[],
        index=None,
    )
    ev = Evidence(Stage.OPTIMIZATION)
    ev.facts.symptom = symptom
    gradient_flow(session, ev)
    return ev


def test_large_gradient_norms_while_the_loss_falls_are_the_losss_scale():
    ev = _run(_weights(norm=1.5e4, step=1e-3), "healthy")
    assert ev.items["gradient_flow"][0] == "passed" and not ev.findings
    assert "the loss's scale, not an explosion" in ev.items["gradient_flow"][1]
    # small steps are no explosion, whatever the symptom
    ev = _run(_weights(norm=1.5e4, step=1e-3), "flat_loss")
    assert ev.items["gradient_flow"][0] == "passed" and not ev.findings


@pytest.mark.parametrize(
    ("weights", "symptom"),
    [(_weights(norm=1.5e4, step=0.5), "divergence"), (_weights(norm=5.0, step=1e-3, nonfinite=2), "healthy")],
)  # fmt: skip
def test_steps_out_of_control_or_non_finite_gradients_are_exploding(weights, symptom, monkeypatch):
    import torch_investigate.agent.checks.optimization as optimization

    monkeypatch.setattr(optimization, "model_location", lambda session, t: None)
    ev = _run(weights, symptom)
    assert ev.items["gradient_flow"][0] == "failed"
    assert [f.category for f in ev.findings] == ["vanishing_or_exploding_gradients"]
