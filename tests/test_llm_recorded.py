"""Sessions a real language model played through `llm_bridge.py`, replayed through the
real `openai` client: what the model did is fixed, what the tools answer is this code's.
The recording's findings must still stand on this code's runtime evidence."""

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
