"""Benchmark scoring on hand-made reports: recall, top-1, symbol, false alarms,
guardrail violations and the summary arithmetic."""

from __future__ import annotations

from typing import Any

import pytest

from torch_investigate.evals.benchmark import scoring
from torch_investigate.evals.benchmark.records import Run, ToolFinding
from torch_investigate.evals.seeding.records import Case, CleanControl, GroundTruth
from torch_investigate.tools.records import (
    CheckItem,
    Experiment,
    Finding,
    Observation,
    Report,
    Stage,
    StageResult,
)

TRUTH = GroundTruth(category="missing_zero_grad", stage=6, file="train.py", symbol="main", line=44)


def case(category: str = "missing_zero_grad", truth: GroundTruth = TRUTH, id: str = "c1") -> Case:
    return Case(
        id=id, path=f"cases/{id}", template="rings", category=category, stage=truth.stage,
        loud=False, variant="delete@train.py:44", change="deleted", truth=truth,
        metric="val_acc", direction="higher", healthy_metric=0.98, buggy_metric=0.5,
        effect="degraded",
    )  # fmt: skip


CONTROL = CleanControl(
    id="clean-rings", path="cases/clean-rings", template="rings", metric="val_acc",
    direction="higher", healthy_metric=0.98,
)  # fmt: skip


def finding(
    category: str, status: str = "confirmed", file: str = "train.py", symbol: str = "main",
    line: int = 46, id: str = "F1",
) -> Finding:  # fmt: skip
    from torch_investigate.tools.taxonomy import taxonomy

    return Finding(
        id=id, category=category, stage=Stage(taxonomy().category(category).stage),
        status=status, confidence="high", file=file, symbol=symbol, line=line,
        evidence=[Observation(source="runtime", text="seen")], why="why", confirm="test",
    )  # fmt: skip


def report(
    findings: list[Finding],
    *,
    root: str | None = None,
    conclusion: str = "defects_found",
    verdicts: dict[int, str] | None = None,
    experiments: list[str] = (),
) -> dict[str, Any]:
    verdicts = verdicts or {}
    stages = [
        StageResult(
            stage=Stage(n),
            verdict=verdicts.get(n, "coherent"),
            checklist=[CheckItem(id="x", description="x", dynamic=False, outcome="passed")],
        )
        for n in range(1, 9)
    ]
    exps = [Experiment(kind=k, description=k, distinguishes="x") for k in experiments]
    r = Report(
        repo="r", stages=stages, findings=findings, root_cause=root, conclusion=conclusion,
        experiments=exps,
    )  # fmt: skip
    return r.model_dump(mode="json")


def run(rep: dict[str, Any] | None, mode: str = "investigator", seconds: float = 5.0) -> Run:
    return Run(mode=mode, case_id="c1", key="k", exit_code=0, seconds=seconds, report=rep)


def test_detected_confirmed_top1_and_symbol():
    s = scoring.score_buggy(case(), run(report([finding("missing_zero_grad")], root="F1")))
    assert (s.detected, s.confirmed, s.top1, s.symbol_hit) == (True, True, True, True)
    assert s.line_distance == 2
    assert not s.false_alarms and not s.violations


def test_plausible_detects_but_does_not_confirm():
    rep = report([finding("missing_zero_grad", status="plausible")], root="F1")
    s = scoring.score_buggy(case(), run(rep))
    assert s.detected and not s.confirmed


def test_refuted_is_not_a_detection():
    rep = report([finding("missing_zero_grad", status="refuted")], conclusion="defects_found")
    s = scoring.score_buggy(case(), run(rep))
    assert not s.detected and not s.top1


def test_root_cause_in_another_file_is_not_top1():
    rep = report([finding("missing_zero_grad", file="model.py")], root="F1")
    s = scoring.score_buggy(case(), run(rep))
    assert s.detected and not s.top1 and not s.symbol_hit and s.line_distance is None


def test_wrong_symbol_is_detected_but_not_localized():
    rep = report([finding("missing_zero_grad", symbol="train_one_epoch")], root="F1")
    s = scoring.score_buggy(case(), run(rep))
    assert s.detected and s.top1 and not s.symbol_hit


def test_other_confirmed_categories_are_false_alarms_on_buggy_cases():
    rep = report(
        [
            finding("missing_zero_grad", id="F1"),
            finding("step_order", id="F2"),
            finding("tiny_grad_clip", status="plausible", id="F3"),
        ],
        root="F2",
    )
    s = scoring.score_buggy(case(), run(rep))
    assert s.detected and not s.top1
    assert len(s.false_alarms) == 1 and "step_order" in s.false_alarms[0]


def test_clean_control_false_alarms_count_confirmed_only():
    rep = report(
        [finding("step_order", id="F1"), finding("metric_bug", status="plausible", id="F2")],
        root="F1",
    )
    s = scoring.score_clean(CONTROL, run(rep))
    assert len(s.false_alarms) == 1


def test_no_defect_found_on_a_buggy_case_is_a_violation():
    s = scoring.score_buggy(case(), run(report([], conclusion="no_defect_found")))
    assert s.violations == ["no_defect_found on a buggy case"]
    clean = scoring.score_clean(CONTROL, run(report([], conclusion="no_defect_found")))
    assert clean.violations == []


def test_optimization_experiment_before_stages_1_to_7_are_coherent_is_a_violation():
    rep = report([finding("missing_zero_grad")], root="F1", verdicts={6: "defect"},
                 experiments=["lr", "fix_confirmation"])  # fmt: skip
    s = scoring.score_buggy(case(), run(rep))
    assert len(s.violations) == 1 and s.violations[0].startswith("lr experiment")


def test_stage8_finding_while_incoherent_is_a_violation_but_not_once_coherent():
    truth = GroundTruth(category="lr_too_high", stage=8, file="train.py", symbol="main", line=38)
    incoherent = report([finding("lr_too_high", line=38)], root="F1", verdicts={2: "inconclusive"},
                        experiments=["lr"])  # fmt: skip
    s = scoring.score_buggy(case("lr_too_high", truth), run(incoherent))
    assert len(s.violations) == 2  # the lr experiment and the stage-8 finding
    coherent = report([finding("lr_too_high", line=38)], root="F1", experiments=["lr"])
    s = scoring.score_buggy(case("lr_too_high", truth), run(coherent))
    assert s.violations == [] and s.top1 and s.line_distance == 0


def test_a_run_without_a_report_is_an_error_and_a_miss():
    r = Run(mode="investigator", case_id="c1", key="k", exit_code=4, seconds=1.0, error="boom")
    s = scoring.score_buggy(case(), r)
    assert not s.detected and s.error == "boom"


def test_torchfix_findings_detect_by_mapped_category_and_any_finding_alarms():
    tf = Run(
        mode="torchfix", case_id="c1", key="k", exit_code=0, seconds=0.5,
        findings=[ToolFinding(category="unmapped:TOR401", file="train.py", line=35)],
    )  # fmt: skip
    s = scoring.score_buggy(case(), tf)
    assert not s.detected and s.said
    clean = scoring.score_clean(CONTROL, tf)
    assert len(clean.false_alarms) == 1


def test_summary_arithmetic():
    scores = [
        scoring.score_buggy(case(id="a"), run(report([finding("missing_zero_grad")], root="F1"), seconds=2)),
        scoring.score_buggy(
            case(id="b"),
            run(report([finding("missing_zero_grad", status="plausible", symbol="x")]), seconds=4),
        ),
        scoring.score_buggy(case(id="c"), run(report([], conclusion="no_defect_found"), seconds=6)),
        scoring.score_buggy(
            case("step_order", id="d"),
            run(report([finding("step_order"), finding("tiny_grad_clip", id="F2")], root="F1"), seconds=8),
        ),
        scoring.score_clean(CONTROL, run(report([finding("metric_bug")], root="F1"), seconds=10)),
    ]  # fmt: skip
    s = scoring.summarize("investigator", scores)
    assert (s.cases, s.clean_controls, s.categories_covered) == (4, 1, 2)
    assert s.detection_recall == pytest.approx(0.75)
    assert s.confirmed_recall == pytest.approx(0.5)
    assert s.top1 == pytest.approx(0.5)
    assert s.symbol_accuracy == pytest.approx(2 / 3, abs=1e-4)
    assert s.localized == pytest.approx(0.5)
    assert (s.false_alarms_clean, s.false_alarms_buggy, s.false_alarms) == (1, 1, 2)
    assert s.clean_controls_flagged == 1
    assert s.guardrail_violations == 1
    assert s.median_s == 6.0 and s.p90_s == pytest.approx(9.2)
    rows = scoring.category_rows(scores)
    assert [(r.category, r.cases, r.detected) for r in rows] == [
        ("missing_zero_grad", 3, 2),
        ("step_order", 1, 1),
    ]


def test_an_alternative_place_counts_for_top1_and_symbol():
    alt = GroundTruth(
        category="missing_zero_grad", stage=6, file="hooks.py", symbol="Clip.__call__", line=15
    )
    f = finding("missing_zero_grad", file="hooks.py", symbol="Clip.__call__", line=16)
    with_alt = case().model_copy(update={"alternatives": [alt]})
    s = scoring.score_buggy(with_alt, run(report([f], root="F1")))
    assert s.top1 and s.symbol_hit and s.line_distance == 1
    assert not scoring.score_buggy(case(), run(report([f], root="F1"))).top1
