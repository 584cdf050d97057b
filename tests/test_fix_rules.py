"""The text and the rules of a patch, without running anything: diffs round-trip through
`git apply` and name their lines (for SARIF), a diff that leaves the repo is refused,
every category has a fixer or a reason, only confirmed findings are patched (root cause
first, stage 8 only once stages 1-7 are coherent), and a model meets the same rule."""

from __future__ import annotations

import pytest
from test_fix_edits import finding, write

from torch_investigate.agent.fix.diff import (
    PatchError,
    apply_diff,
    check_paths,
    diff_files,
    replacements,
    unified_diff,
)
from torch_investigate.agent.fix.mechanical import NOT_MECHANICAL, REGISTRY
from torch_investigate.agent.fix.patcher import targets
from torch_investigate.tools.records import Finding, Report, Stage, StageResult
from torch_investigate.tools.taxonomy import taxonomy

# ---- diff text ----------------------------------------------------------------------------


def test_a_diff_round_trips_through_git_apply_and_names_its_lines(tmp_path):
    before = {"a.py": b"x = 1\ny = 2\nz = 3\n", "b/c.py": b"print(1)"}
    after = {"a.py": b"x = 1\ny = 20\nz = 3\n", "b/c.py": b"print(2)"}
    diff = unified_diff(before, after)
    assert diff_files(diff) == ["a.py", "b/c.py"]
    write(tmp_path, {"a.py": "x = 1\ny = 2\nz = 3\n"})
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.py").write_bytes(b"print(1)")  # no newline at the end
    apply_diff(tmp_path, diff)
    assert (tmp_path / "a.py").read_bytes() == after["a.py"]
    assert (tmp_path / "b" / "c.py").read_bytes() == after["b/c.py"]
    reps = {r.file: r for r in replacements(diff)}
    assert (reps["a.py"].start, reps["a.py"].deleted, reps["a.py"].inserted) == (2, 1, "y = 20\n")
    with pytest.raises(PatchError):  # applied twice: it no longer fits
        apply_diff(tmp_path, diff)


def test_a_diff_that_leaves_the_repo_is_refused():
    with pytest.raises(PatchError, match="outside the repo"):
        check_paths("--- a/../x.py\n+++ b/../x.py\n@@ -1 +1 @@\n-a\n+b\n")


def test_every_category_has_a_fixer_or_a_reason():
    ids = {c.id for c in taxonomy().categories}
    assert ids == set(REGISTRY) | set(NOT_MECHANICAL)
    assert not set(REGISTRY) & set(NOT_MECHANICAL)


def test_only_confirmed_findings_are_patched_root_cause_first_and_stage_8_waits():
    def f(i: str, cat: str, status: str = "confirmed") -> Finding:
        base = finding(cat, "train.py", 1)
        return base.model_copy(update={"id": i, "status": status})

    stages = [StageResult(stage=Stage(s), checklist=[], verdict="coherent") for s in range(1, 9)]
    report = Report(
        repo="r", stages=stages, conclusion="defects_found", root_cause="F3",
        findings=[f("F1", "missing_zero_grad"), f("F2", "bad_labels", "plausible"),
                  f("F3", "loss_args_swapped"), f("F4", "lr_too_low")],
    )  # fmt: skip
    assert [x.id for x in targets(report)] == ["F3", "F1", "F4"]
    stages[3].verdict = "defect"
    assert [x.id for x in targets(report)] == ["F3", "F1"]


def test_a_model_may_not_patch_stage_8_while_stages_1_to_7_are_open(tmp_path):
    from types import SimpleNamespace

    from torch_investigate.agent.core.guardrails import Refused
    from torch_investigate.agent.fix.propose import ModelProposer, ProposePatchArgs, _Round

    f = finding("lr_too_high", "train.py", 3)
    stages = [StageResult(stage=Stage(s), checklist=[], verdict="coherent") for s in range(1, 9)]
    stages[5].verdict = "inconclusive"
    report = Report(
        repo="r", stages=stages, findings=[f], conclusion="defects_found", root_cause="F1"
    )
    fixing = SimpleNamespace(original=SimpleNamespace(report=report))
    proposer = ModelProposer.__new__(ModelProposer)
    args = ProposePatchArgs(finding="F1", diff="--- a/train.py\n", explanation="lower lr")
    with pytest.raises(Refused) as refused:
        proposer._propose_patch(fixing, _Round(f), args)  # type: ignore[arg-type]
    assert refused.value.rule == "optimization_before_correctness"
    assert "stage 6" in refused.value.message


def test_each_confirmed_finding_has_an_outcome_and_bench_counts_them():
    """What became of every confirmed finding, read off the report alone: its patch's
    status (with the kind of reason for one that fell short), removed by another patch,
    held back by the stage-8 guardrail, not mechanical, or no edit fit."""
    from torch_investigate.agent.fix.outcomes import outcomes
    from torch_investigate.agent.fix.patcher import covered_note
    from torch_investigate.evals.benchmark.patch_records import PatchScore
    from torch_investigate.evals.benchmark.patches import summarize
    from torch_investigate.evals.benchmark.table import findings_line
    from torch_investigate.tools.fix_records import Patch

    def f(i: str, cat: str, status: str = "confirmed") -> Finding:
        return finding(cat, "train.py", 1).model_copy(update={"id": i, "status": status})

    def p(i: str, fid: str, cat: str, status: str, reason: str) -> Patch:
        return Patch(id=i, finding=fid, category=cat, origin="mechanical", change="c",
                     diff="d", status=status, verified=status == "verified", reason=reason)  # fmt: skip

    stages = [StageResult(stage=Stage(s), checklist=[], verdict="coherent") for s in range(1, 9)]
    stages[5].verdict = "defect"
    tiny_clip = f("F2", "tiny_grad_clip")
    report = Report(
        repo="r", stages=stages, conclusion="defects_found", root_cause="F3",
        findings=[f("F1", "missing_zero_grad"), tiny_clip, f("F3", "softmax_before_ce"),
                  f("F4", "lr_too_high"), f("F5", "split_leakage"), f("F6", "bad_labels"),
                  f("F7", "metric_bug", "plausible")],
        patches=[p("P1", "F3", "softmax_before_ce", "verified", "softmax_before_ce is no longer confirmed and ..."),
                 p("P2", "F1", "missing_zero_grad", "dropped", "the patched run crashed: boom")],
        notes=[covered_note(tiny_clip, "P1")],
    )  # fmt: skip
    got = [(o.finding, o.outcome, o.why, o.root_cause) for o in outcomes(report)]
    assert got == [
        ("F3", "verified", "", True),
        ("F5", "not_mechanical", "", False),
        ("F6", "no_edit", "", False),
        ("F1", "dropped", "crashed", False),
        ("F2", "covered", "", False),
        ("F4", "held", "", False),
    ]
    s = summarize([("buggy", PatchScore(root_confirmed=True, patched=True, verified=True,
                                        findings=outcomes(report)))])  # fmt: skip
    assert (
        s.confirmed_findings == 6 and s.outcomes["verified"] == 1 and s.short_of == {"crashed": 1}
    )
    assert findings_line(s).startswith("confirmed findings: 6 | verified 1, dropped 1, ")
    assert "held back (stage 8) 1" in findings_line(s) and "fell short: crashed 1" in findings_line(
        s
    )


def test_bench_patch_reads_a_metric_printed_in_the_programs_own_words():
    from torch_investigate.evals.benchmark.patches import read_metric

    out = "epoch 1 | val_r2 0.5000\nfinal | val_rmse 0.7100 | val_r2 0.9675\n"
    assert read_metric(out, "val_r2") == 0.9675  # the last one printed
    assert read_metric("METRIC val_acc=0.91\nval_acc 0.30\n", "val_acc") == 0.91
    assert read_metric("best_val_acc 0.2\nval_acc: 1e-3\n", "val_acc") == 0.001
    assert read_metric("val_accuracy 0.9\n", "val_acc") is None


def test_the_criterion_of_a_patch_is_its_findings_intervention_in_memory_and_read_back():
    # the typed effect an investigation holds, and the same finding read back from JSON
    from torch_investigate.agent.checks.effects import Effect
    from torch_investigate.agent.fix.verify import fix_intervention

    fixing = Effect(
        0.5, 0.2, 1.0, True, "zeroed", interventions={"zero_grad_before_backward": True}
    )
    diagnostic = Effect(0.5, 0.1, 1.0, True, "pool", interventions={"fixed_batch": True})
    seen = finding("missing_zero_grad", "train.py", 3)
    seen.evidence = [diagnostic.observation(), fixing.observation(), *seen.evidence]
    for f in (seen, Finding.model_validate_json(seen.model_dump_json())):
        effect = fix_intervention(f)
        assert effect is not None and effect.interventions == {"zero_grad_before_backward": True}
        assert effect.improved and effect.loss_with_change == 0.2
