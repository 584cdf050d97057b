"""Stage verdicts that follow a review (issue 20, point 4), through the real `openai`
client: the planner confirms that the forward ignores its input (stage 3), so stage 2
leaves pairing untested ("the forward ignores its input (stage 3)") and stage 8 is not
examined. A scripted model refutes the stage-3 finding and settles the items with its
probes: every reason that cited stage 3 says it moved, stage 3 and stage 2 are recomputed
from what they hold, and once stages 1-7 are coherent stage 8 runs."""

import re

import pytest
from fakellm import Reply, ScriptedLLM, call
from fakellm.helpers import ROOT, run_review

BARS = ROOT / "evals" / "suite" / "cases" / "bars-output_ignores_input"


def last_issued(request) -> str:
    return re.findall(r"recorded as observation (E\d+)", request.tool_results()[-1]["content"])[-1]


def probe(text: str) -> Reply:
    return Reply(tool_calls=[call("run_probe", code=f"print({text!r})")])


@pytest.mark.slow  # the planner's walk, then stage 8's checks once it opens (about 2 minutes)
def test_refuting_a_blocking_finding_recomputes_the_stages_and_runs_stage_8():
    ids: dict[str, str] = {}

    def refute(req):
        ids["forward"] = last_issued(req)
        return Reply(tool_calls=[
            call("update_finding", finding="F1", status="refuted",
                 evidence_ids=[ids["forward"]], notes="the outputs follow the inputs"),
            call("check_item", stage=3, item="input_dependence", outcome="passed",
                 evidence_ids=[ids["forward"]]),
        ])  # fmt: skip

    def rerun_then_probe(req):
        return Reply(tool_calls=[
            call("run_stage_checks", stage=2),
            call("run_probe", code="print('unseen batch: real pairs 0.31, shuffled 0.69')"),
        ])  # fmt: skip

    def pairing(req):
        ids["pairs"] = last_issued(req)
        return Reply(tool_calls=[
            call("revise_symptom", symptom="bad_evaluation", evidence_ids=[ids["pairs"]]),
            call("check_item", stage=2, item="pairing", outcome="passed",
                 evidence_ids=[ids["pairs"]]),
        ])  # fmt: skip

    def finish(req):
        # stage 8's checks confirmed what they found: the review names it (or refutes it)
        ids["s8"] = re.search(r"confirmed: (F\d+)", req.messages[-1]["content"]).group(1)
        return Reply(tool_calls=[call("finish", root_cause=ids["s8"], explanation="stage 8")])

    script = [
        probe("reordered rows reorder the outputs; outputs move by 0.41 with the inputs"),
        refute,
        rerun_then_probe,
        pairing,
        finish,
    ]
    with ScriptedLLM(script) as server:
        report, policy, _ = run_review(BARS, server)
    assert not server.overruns and policy.stop_reason == "finished"
    walk = server.requests[0].messages[1]["content"]
    assert "the forward ignores its input (stage 3)" in walk
    assert "Stage 8 Optimization choices: not_examined" in walk

    refuted, settled = (m["content"] for m in server.requests[2].tool_results())
    assert "F1 output_ignores_input: confirmed -> refuted" in refuted
    assert "stage 3 now inconclusive (input_dependence failed, with no confirmed" in refuted
    assert "stage 3 now coherent (every item settled, nothing confirmed" in settled
    # stage 2's reason still cites stage 3, and says that stage 3 moved
    assert re.search(
        r"stage 2 now inconclusive \(pairing: [^\n]*\(stage 3\)[^\n]*"
        r"\[since it closed: stage 3 is now coherent\]",
        settled,
    )
    # a closed stage's checks cannot run again on the same trace: the refusal says so
    rerun = server.requests[3].tool_results()[0]["content"]
    assert "stage 2 is closed as inconclusive; its checks ran on this run's trace" in rerun
    assert "check_item" in rerun
    # pairing settled: stages 1-7 are coherent, stage 8 opens and its checks run
    revised, paired = (m["content"] for m in server.requests[4].tool_results())
    assert re.search(r"symptom: \w+ -> bad_evaluation", revised)
    assert paired.endswith("stage 8 now open")
    opened = server.requests[4].messages[-1]
    assert opened["role"] == "user"
    assert (
        "Stages 1-7 are now coherent, so stage 8 (optimization choices) was opened"
        in (opened["content"])
    )
    # stage 8's checks started from the session's facts: the revised symptom stands
    assert report.symptom == "bad_evaluation" and "revised by review:scripted" in (
        report.symptom_evidence
    )
    stages = {s.stage: s for s in report.stages}
    assert [stages[n].verdict for n in range(1, 8)] == ["coherent"] * 7
    assert stages[3].reason.startswith("every item settled, nothing confirmed (revised")
    assert "stage 3" not in stages[2].reason
    assert stages[8].verdict != "not_examined"
    assert not any("stage 8 runs only when" in i.detail for i in stages[8].checklist)
    f1 = report.finding("F1")
    assert (f1.status, f1.revised_by) == ("refuted", "review:scripted")
    assert f1.revisions[-1].evidence_ids == [ids["forward"]]
    assert [(f.tool, f.rule) for f in policy.failures] == [("run_stage_checks", "stage_order")]
    s8 = report.finding(ids["s8"])
    assert (s8.stage, s8.status, s8.recorded_by) == (8, "confirmed", "planner")
    assert report.root_cause == ids["s8"]
