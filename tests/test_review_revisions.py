"""A review that changes its mind (issue 20), through the real `openai` client: a
scripted model confirms, demotes and refutes findings, settles items and corrects the
symptom on a planner walk of a repo whose only confirmed finding is stage 8's lr_too_low
(stages 1-7 coherent). Every review starts from the same walk."""

import re

import pytest
from fakellm import Reply, call
from fakellm.helpers import ROOT, WalkedRepo

from torch_investigate.agent.render import render
from torch_investigate.tools.records import Revision

MINILOOP = ROOT / "evals" / "suite" / "cases" / "miniloop-lr_too_low"
OTHER = dict(
    category="other", confidence="high", file="train.py", line=22,
    why="no gradient reaches the weights", confirm="print the weight's grad after backward",
)  # fmt: skip


@pytest.fixture(scope="module")
def walked():
    w = WalkedRepo(MINILOOP)
    yield w
    w.close()


def last_issued(request) -> str:
    """The observation id the last probe issued, as the model reads it."""
    return re.findall(r"recorded as observation (E\d+)", request.tool_results()[-1]["content"])[-1]


def recorded(request) -> str:
    return re.search(r"recorded (F\d+)", request.tool_results()[-1]["content"]).group(1)


def results(server) -> list[str]:
    """Every tool result the model read, in order."""
    return [m["content"] for r in server.requests for m in r.tool_results()]


def probe(text: str) -> Reply:
    return Reply(tool_calls=[call("run_probe", code=f"print({text!r})")])


def test_a_review_demotes_a_stage_8_finding_once_stage_5_is_a_defect(walked):
    """Points 1, 4, 5: the review confirms a stage-5 defect with its probe; refuting the
    planner's stage-8 root cause is then allowed, credited with its evidence, and stage 8
    waits again, naming what blocks it."""
    ids: dict[str, str] = {}

    def record(req):
        ids["probe"] = last_issued(req)
        title = "the weight never gets a gradient"
        finding = dict(OTHER, title=title, stage=5, status="confirmed", evidence_ids=[ids["probe"]])
        return Reply(tool_calls=[call("record_finding", **finding)])

    def refute(req):
        ids["new"] = recorded(req)
        return Reply(tool_calls=[call(
            "update_finding", finding="F1", status="refuted", evidence_ids=[ids["probe"]],
            notes="the step size is not what blocks learning",
        )])  # fmt: skip

    def finish(req):
        return Reply(tool_calls=[call("finish", root_cause=ids["new"], explanation="stage 5")])

    script = [probe("0 of 2 parameters got a gradient"), record, refute, finish]
    report, policy, server, _ = walked.review(script)
    assert policy.stop_reason == "finished" and not policy.failures and not server.overruns
    f1 = report.finding("F1")
    assert (f1.category, f1.status, f1.revised_by) == ("lr_too_low", "refuted", "review:scripted")
    assert f1.revisions == [Revision(
        by="review:scripted", status_from="confirmed", status_to="refuted",
        evidence_ids=[ids["probe"]], note="the step size is not what blocks learning",
    )]  # fmt: skip
    new = report.finding(ids["new"])
    assert (new.stage, new.status, new.recorded_by) == (5, "confirmed", "review:scripted")
    verdicts = {s.stage: s for s in report.stages}
    assert verdicts[5].verdict == "defect" and ids["new"] in verdicts[5].reason
    assert verdicts[8].verdict == "not_examined"
    assert verdicts[8].reason.startswith("stage 5 (Autograd) is defect")
    # what each call did to the stages came back to the model
    said = results(server)
    assert (
        "stage 8 now defect (confirmed: F1 lr_too_low; but stage 5 (Autograd) is defect"
        in (said[1])
    )
    assert (
        "F1 lr_too_low: confirmed -> refuted" in said[2] and "stage 8 now not_examined" in said[2]
    )
    assert report.root_cause == ids["new"] and report.summary.verdict == "root_cause"
    md = render(report, "md")
    assert f"**Revised by:** `review:scripted`, confirmed -> refuted on {ids['probe']}" in md


def test_the_answer_quotes_what_confirms_the_finding_as_it_now_stands(walked):
    """Point 2: refuted on one probe, confirmed again on a later one: the answer quotes the
    later probe, not the refuting observation nor the walk's intervention."""
    ids: dict[str, str] = {}

    def refute(req):
        ids["against"] = last_issued(req)
        return Reply(tool_calls=[call(
            "update_finding", finding="F1", status="refuted", evidence_ids=[ids["against"]]
        )])  # fmt: skip

    def confirm(req):
        ids["for"] = last_issued(req)
        return Reply(tool_calls=[call(
            "update_finding", finding="F1", status="confirmed", evidence_ids=[ids["for"]]
        )])  # fmt: skip

    script = [
        probe("the run contradicts it: one step moves the weight"),
        refute,
        probe("lr x1000 fits the batch: 50.13 -> 0.19"),
        confirm,
        Reply(tool_calls=[call("finish", root_cause="F1", explanation="lr")]),
    ]
    report, policy, _, _ = walked.review(script)
    assert policy.stop_reason == "finished" and not policy.failures
    s = report.summary
    assert s.verdict == "root_cause" and s.confirming_id == ids["for"]
    assert "50.13 -> 0.19" in s.confirming and "contradicts" not in s.confirming
    assert "contradicts" not in report.root_cause_explanation
    assert [r.status_to for r in report.finding("F1").revisions] == ["refuted", "confirmed"]
    assert next(s for s in report.stages if s.stage == 8).verdict == "defect"


def test_check_item_changes_the_item_or_is_refused_with_the_reason(walked):
    """Point 3: `check_item` on a failed item with a probe changes it and says so; one that
    cites only static evidence for a runtime item is refused, and the item stays."""
    static = walked.session.protocol.stages[1].checklist[0].evidence_ids[0]  # training_command

    def settle(req):
        return Reply(tool_calls=[
            call("check_item", stage=8, item="lr_sweep", outcome="passed",
                 evidence_ids=[last_issued(req)], detail="the sweep was misread"),
            call("check_item", stage=8, item="activations", outcome="failed",
                 evidence_ids=[static]),
        ])  # fmt: skip

    script = [
        probe("the fixed batch fits at the configured lr"),
        settle,
        Reply(tool_calls=[call("finish", root_cause="F1", explanation="lr")]),
    ]
    report, policy, server, _ = walked.review(script)
    changed, refused = server.requests[2].tool_results()
    assert "item lr_sweep: failed -> passed" in changed["content"]
    assert "REFUSED by the guardrail `confirmed_needs_runtime`" in refused["content"]
    assert "'activations' is checked at run time" in refused["content"]
    items = {i.id: i for i in next(s for s in report.stages if s.stage == 8).checklist}
    assert items["lr_sweep"].outcome == "passed" and "was failed" in items["lr_sweep"].detail
    assert items["activations"].outcome == "passed"  # the refused call changed nothing


def test_the_symptom_and_a_findings_stage_can_be_given(walked):
    """Points 7 and 9: the symptom is revised on a probe (not on static evidence); an
    `other` finding in a review names its stage; notes stay reasoning, and a finding that
    cites no id rests on the code at its location, read and logged by the engine."""
    static = walked.session.protocol.stages[1].checklist[0].evidence_ids[0]
    finding = dict(OTHER, title="the loss is summed per row", status="plausible", notes="words")

    def revise(req):
        return Reply(tool_calls=[
            call("revise_symptom", symptom="slow_progress", evidence_ids=[static]),
            call("revise_symptom", symptom="slow_progress", evidence_ids=[last_issued(req)],
                 notes="it falls, slowly"),
        ])  # fmt: skip

    script = [
        probe("loss 50.13 -> 49.46 in 300 steps, still falling"),
        revise,
        Reply(tool_calls=[call("record_finding", **finding)]),
        Reply(tool_calls=[call("record_finding", **finding, stage=4)]),
        Reply(tool_calls=[call("finish", root_cause="F1", explanation="lr")]),
    ]
    report, policy, server, _ = walked.review(script)
    assert [(f.kind, f.rule) for f in policy.failures] == [
        ("refused", "confirmed_needs_runtime"),
        ("malformed", None),
    ]
    assert "give `stage` (1-8)" in server.requests[3].tool_results()[0]["content"]
    assert report.symptom == "slow_progress"
    assert "revised by review:scripted from flat_loss" in report.symptom_evidence
    loss_curve = next(i for i in report.stages[0].checklist if i.id == "loss_curve")
    assert "symptom revised by review:scripted: flat_loss -> slow_progress" in loss_curve.detail
    (other,) = [f for f in report.findings if f.category == "other"]
    assert other.stage == 4 and other.notes == "words"
    (code,) = other.evidence
    assert code.id and code.source == "static" and code.text.startswith("code at train.py:22")
    assert all(o.id for f in report.findings for o in f.evidence)  # no evidence without an id
