"""One home per concept: the intervention registry names exactly the tracer's changes and
refuses any other."""

from dataclasses import fields

import pytest

from torch_investigate.tools.interventions import (
    REGISTRY,
    UnknownIntervention,
    changes_loss,
    tracer_interventions,
)
from torch_investigate.tools.trace.config import Interventions


def test_the_registry_names_exactly_the_tracers_interventions():
    assert set(REGISTRY) == {f.name for f in fields(Interventions)}
    for key, iv in REGISTRY.items():
        assert iv.key == key and iv.words and iv.short


def test_a_misspelt_intervention_is_refused_not_dropped():
    assert tracer_interventions({"lr_scale": 10.0}).lr_scale == 10.0
    with pytest.raises(UnknownIntervention, match="lr_scal'"):
        tracer_interventions({"lr_scal": 10.0})


def test_the_runner_builds_a_typed_config_and_refuses_unknown_changes():
    from torch_investigate.agent.core.runs import Runner

    runner = Runner.__new__(Runner)
    runner.steps, runner.timeout_s = 200, 120.0
    cfg = runner._config({"no_clip": True}, baseline=False, train_loader=None, steps=None)
    assert cfg.interventions.no_clip and cfg.max_steps == 120
    with pytest.raises(UnknownIntervention):
        runner._config({"no_clip_": True}, baseline=False, train_loader=None, steps=None)


def test_which_changes_alter_the_loss_itself():
    assert changes_loss({"strip_prob": True}) and changes_loss(["swap_loss_args"])
    assert not changes_loss({"zero_grad_before_backward": True, "lr_scale": 10})
