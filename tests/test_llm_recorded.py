"""Sessions a real language model played through `llm_bridge.py`, replayed through the
real `openai` client: what the model did is fixed, what the tools answer is this code's.
The recording's findings must still stand on this code's runtime evidence."""

import os
from pathlib import Path

import pytest
from fakellm import RecordedSession, ScriptedLLM
from fakellm.helpers import run_policy, run_review

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "not_learning"
HEALTHY = ROOT / "evals" / "test" / "cases" / "healthy-linearprobe"


def test_a_recorded_review_confirms_position_paired_clips_from_its_probes():
    """clips_by_position: files sorted as text, labels in id order. The planner alone
    cannot tell (pairing untested, stage 2 inconclusive); the model's two probes show the
    mispairing and what re-pairing changes, and its finding is confirmed on them."""
    session = RecordedSession(FIXTURES / "sessions" / "review-clips")
    with ScriptedLLM(session.script()) as server:
        report, policy, _ = run_review(FIXTURES / "clips_by_position", server)
    assert server.overruns == 0 and policy.usage.stop_reason == "finished"
    assert report.conclusion == "defects_found"
    root = next(f for f in report.findings if f.id == report.root_cause)
    assert (root.category, root.status) == ("label_misaligned", "confirmed")
    assert (root.file, root.symbol) == ("clips.py", "ClipDataset.__init__")
    # its evidence is the probes this run made, runtime observations of this run
    probes = [o for o in root.evidence if o.source == "probe"]
    assert len(probes) == 2 and "598" in probes[0].text
    data = next(s for s in report.stages if s.stage == 2)
    pairing = next(i for i in data.checklist if i.id == "pairing")
    assert pairing.outcome == "failed" and not pairing.untested


def test_a_recorded_walk_of_the_bundled_example_confirms_the_softmax_before_the_loss():
    """The model walked all eight stages itself (22 requests); its probe compared the run
    with and without the softmax on accuracy, a measure both share."""
    session = RecordedSession(FIXTURES / "sessions" / "walk-example")
    with ScriptedLLM(session.script()) as server:
        report, policy, _ = run_policy(EXAMPLE, server)
    assert server.overruns == 0 and policy.usage.stop_reason == "finished"
    assert policy.usage.refusals == 0
    root = next(f for f in report.findings if f.id == report.root_cause)
    assert (root.category, root.status) == ("softmax_before_ce", "confirmed")
    assert (root.file, root.symbol) == ("model.py", "SpiralNet.forward")
    assert [f.id for f in report.findings if f.status == "confirmed"] == [root.id]
    assert any(o.source == "probe" for o in root.evidence)


@pytest.mark.slow  # its probes rebuild and train the whole pipeline (about a minute)
def test_a_recorded_review_of_a_healthy_pipeline_confirms_nothing():
    """A pretraining + linear-probe pipeline with no defect: the model settled the item the
    planner left open with its own probes and found nothing to confirm."""
    session = RecordedSession(FIXTURES / "sessions" / "review-healthy-linearprobe")
    with ScriptedLLM(session.script()) as server:
        report, policy, _ = run_review(HEALTHY, server)
    assert server.overruns == 0 and policy.usage.stop_reason == "finished"
    assert report.root_cause is None
    assert not [f for f in report.findings if f.status == "confirmed"]
    assert report.conclusion in ("no_defect_found", "inconclusive")


# ---- reviews that change the planner's answer (issue 20) ----------------------------------------

CASES = ROOT / "evals" / "test" / "cases"
SESSIONS = FIXTURES / "sessions"


def replay(name: str, repo: Path, **options):
    """(report, policy) of a recorded review replayed at the CLI's defaults (the recording's)."""
    from fakellm.helpers import settings

    from torch_investigate.agent.core.policy import investigate
    from torch_investigate.agent.core.runs import DEFAULT_STEPS
    from torch_investigate.agent.core.session import Options, Session
    from torch_investigate.agent.llm import LLMPolicy
    from torch_investigate.agent.llm.review import ReviewPolicy

    session = RecordedSession(SESSIONS / name)
    with ScriptedLLM(session.script()) as server:
        policy = ReviewPolicy(LLMPolicy(settings(server, model="claude-helper")))
        with Session(repo, Options(steps=DEFAULT_STEPS, **options)) as s:
            investigate(s, policy)
            report = s.report(llm=policy.usage)
    assert server.overruns == 0 and policy.usage.stop_reason == "finished"
    assert policy.usage.refusals == 0 and not policy.failures
    return report


def real_repo(tmp_path: Path, seed_id: str) -> tuple[Path, dict]:
    """A seed of the real-repo suite (evals/real), materialized from the mirror named by
    TI_REAL_REPOS (as `investigate bench evals/real --repos DIR`); skipped without one."""
    repos = os.environ.get("TI_REAL_REPOS")
    manifest = ROOT / "evals" / "real" / "manifest.yaml"
    if not repos or not manifest.is_file():
        pytest.skip(
            "needs the real-repo suite's mirror (TI_REAL_REPOS) and evals/real/manifest.yaml"
        )
    from torch_investigate.evals.real.materialize import RealManifest, materialize

    repo, seed = RealManifest.load(manifest).find(seed_id)
    folder = materialize(repo, seed, repos, tmp_path / "repo")
    return folder, {"cmd": repo.command, "timeout_s": repo.timeout}


def root_of(report):
    return next(f for f in report.findings if f.id == report.root_cause)


@pytest.mark.slow  # the planner's walk at the CLI's 200 steps, and a probe that trains twice
def test_a_recorded_review_finds_the_subject_leak_the_planner_called_healthy():
    """cohortpkg: recordings split at random although each subject has ten. The planner
    found no defect; the weak point was a loss settled at 0.02% of the targets' entropy.
    The model's probe shows every validation subject also in training, and validation loss
    0.77 instead of 0.002 with a subject split; it records the leak, fails the leakage
    item and corrects the symptom to too_good."""
    report = replay("review-cohortpkg", CASES / "cohortpkg-split_leakage")
    root = root_of(report)
    assert (root.category, root.status) == ("split_leakage", "confirmed")
    assert (root.file, root.symbol) == ("cohort/train.py", "make_split")
    assert [o.source for o in root.evidence] == ["probe"] and root.notes
    assert report.symptom == "too_good" and report.summary.confirming_id == root.evidence[0].id
    data = next(s for s in report.stages if s.stage == 2)
    assert data.verdict == "defect"
    assert next(i for i in data.checklist if i.id == "leakage").outcome == "failed"


@pytest.mark.slow  # the planner's walk at the CLI's 200 steps, and a probe that trains twice
def test_a_recorded_review_confirms_the_planners_suspicion_of_mse_on_class_ids():
    """landcover: class ids regressed with MSE. The planner left it plausible (whether the
    ids are ordered it cannot tell); the model reads the class names, and its probe trains
    the same body both ways: test accuracy 0.437 as written, 0.828 with cross-entropy. The
    planner's finding is confirmed by the review, credited, and the answer quotes the
    review's probe."""
    report = replay("review-landcover", CASES / "landcover-wrong_loss_for_task")
    root = root_of(report)
    assert (root.category, root.status, root.recorded_by) == (
        "wrong_loss_for_task",
        "confirmed",
        "planner",
    )
    assert root.revised_by == "review:claude-helper"
    (revision,) = root.revisions
    assert (revision.status_from, revision.status_to) == ("plausible", "confirmed")
    probe = report.summary.confirming_id
    assert revision.evidence_ids == [probe] and "0.828" in report.summary.confirming
    assert report.symptom == "bad_evaluation"
    assert next(s for s in report.stages if s.stage == 4).verdict == "defect"


@pytest.mark.slow  # a real repo, materialized; the planner's walk at the CLI's 200 steps
def test_a_recorded_review_finds_the_scrambled_batch_layout_of_a_word_language_model(tmp_path):
    """pytorch/examples word_language_model with batchify's transpose dropped: the planner
    was inconclusive (slow progress, pairing untested); the model's probe measures how much
    the input token says about its target as batchify lays them out (nearly nothing) and
    along the text, and confirms reshape_scramble at batchify."""
    folder, options = real_repo(tmp_path, "examples-word-lm-reshape_scramble")
    report = replay("review-wordlm", folder, **options)
    root = root_of(report)
    assert (root.category, root.status, root.file, root.symbol) == (
        "reshape_scramble",
        "confirmed",
        "main.py",
        "batchify",
    )
    pairing = next(i for i in report.stages[1].checklist if i.id == "pairing")
    assert pairing.outcome == "failed"


@pytest.mark.slow  # a real repo, materialized; the planner's walk at the CLI's 200 steps
def test_a_recorded_review_finds_the_accuracy_divided_by_the_batch_count(tmp_path):
    """pytorch/examples mnist_rnn whose test() divides by len(test_loader): the planner found
    no defect; the model reads the script, runs test() in a probe (10300% printed for
    10.3%), confirms metric_bug and corrects the symptom."""
    folder, options = real_repo(tmp_path, "examples-mnist-rnn-metric_bug")
    report = replay("review-mnistrnn", folder, **options)
    root = root_of(report)
    assert (root.category, root.status, root.file, root.symbol) == (
        "metric_bug",
        "confirmed",
        "main.py",
        "test",
    )
    assert report.symptom == "bad_evaluation"
    assert next(s for s in report.stages if s.stage == 7).verdict == "defect"
