"""One home per concept: the intervention registry names exactly the tracer's changes and
refuses any other."""

import json
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
    runner.steps, runner.timeout_s, runner.metric_calls, runner.then = 200, 120.0, [], []
    cfg = runner._config({"no_clip": True}, baseline=False, train_loader=None, steps=None)
    assert cfg.interventions.no_clip and cfg.max_steps == 120
    with pytest.raises(UnknownIntervention):
        runner._config({"no_clip_": True}, baseline=False, train_loader=None, steps=None)


def test_which_changes_alter_the_loss_itself():
    assert changes_loss({"strip_prob": True}) and changes_loss(["swap_loss_args"])
    assert not changes_loss({"zero_grad_before_backward": True, "lr_scale": 10})


# ---- a taxonomy category is one entry -------------------------------------------------


@pytest.fixture
def dummy_category(monkeypatch):
    """One more entry in the taxonomy's spec, and nothing else anywhere."""
    from torch_investigate.tools.taxonomy import Category, taxonomy

    dummy = Category(
        id="dummy_defect",
        stage=4,
        loud=False,
        title="a dummy defect only this test knows",
        confirm="the dummy observation",
        why="a dummy defect breaks nothing real",
        refuted_by="argument_order",
        fix="swap_loss_args",
        causes=["tiny_grad_clip"],
        not_seedable="a test category: no template holds it",
    )
    tax = taxonomy()
    monkeypatch.setattr(tax, "categories", [*tax.categories, dummy])
    return dummy


def _report_with(category: str):
    from torch_investigate.tools.records import Finding, Observation, Report, Stage

    finding = Finding(
        id="F1", category=category, stage=Stage.LOSS, status="plausible", confidence="high",
        file="train.py", line=3, symbol="main", why="because", confirm="run it",
        evidence=[Observation(source="static", text="seen in the code")],
    )  # fmt: skip
    return Report(
        tool_version="0", created_at="2026-01-01T00:00:00+00:00", repo="/repo",
        git={"is_repo": False}, policy="planner", stages=[], findings=[finding],
        conclusion="inconclusive", conclusion_reason="a test",
    )  # fmt: skip


def test_a_new_category_is_in_the_schemas(dummy_category):
    from torch_investigate.agent.core.tool_args import RecordFindingArgs
    from torch_investigate.tools.records import Report

    finding = Report.model_json_schema()["$defs"]["Finding"]
    assert "dummy_defect" in finding["properties"]["category"]["enum"]
    assert "dummy_defect" in json.dumps(RecordFindingArgs.model_json_schema())


def test_a_new_category_is_in_the_reports_wording(dummy_category):
    from torch_investigate.agent.render import render

    report = _report_with("dummy_defect")
    assert report.findings[0].title == dummy_category.title
    assert dummy_category.title in render(report, "md")
    rules = json.loads(render(report, "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    rule = next(r for r in rules if r["id"] == "dummy_defect")
    assert rule["shortDescription"]["text"] == dummy_category.title
    assert rule["help"]["text"] == dummy_category.confirm


def test_a_new_category_is_read_by_the_checks_and_the_conclusion(dummy_category):
    from torch_investigate.agent.checks.base import Evidence
    from torch_investigate.agent.core.conclude import consequence_of
    from torch_investigate.tools.records import Stage
    from torch_investigate.tools.taxonomy import taxonomy

    ev = Evidence(Stage.SYMPTOM)
    f = ev.find("dummy_defect", status="plausible", confidence="low", evidence=[],
                why="w", confirm="c")  # fmt: skip
    assert f.stage == Stage.LOSS  # the spec's stage, whichever stage's check found it
    assert taxonomy().refuted_by("dummy_defect") == "argument_order"
    assert "dummy_defect" in consequence_of("tiny_grad_clip")


def test_a_new_category_is_in_the_seeding(dummy_category, tmp_path, capsys):
    from torch_investigate.evals.seeding.cli import seed_repo
    from torch_investigate.evals.seeding.generate import not_seeded

    assert not_seeded(set(), [], {})["dummy_defect"] == dummy_category.not_seedable
    assert seed_repo(tmp_path, "dummy_defect", tmp_path / "out") == 2
    assert "no operator seeds 'dummy_defect'" in capsys.readouterr().err


def test_every_spec_names_known_items_and_interventions():
    from torch_investigate.agent.core.stages import fresh_checklist
    from torch_investigate.tools.records import Stage
    from torch_investigate.tools.taxonomy import taxonomy

    for c in taxonomy().categories:
        if c.refuted_by is not None:
            items = {i.id for i in fresh_checklist(Stage(c.stage))}
            assert c.refuted_by in items, c.id
        if c.fix is not None:
            assert c.fix.partition("=")[0] in REGISTRY, c.id
        assert c.why, c.id
