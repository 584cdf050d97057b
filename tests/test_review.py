"""Review mode: the planner walks, then a model works on the weak points through the same
tools and guardrails, against a scripted OpenAI-compatible server."""

import re

from fakellm.helpers import healthy_rings, run_review, seeded_rings
from fakellm.server import Reply, ScriptedLLM, call


def _first_request_text(server) -> str:
    return "\n".join(m.get("content") or "" for m in server.requests[0].body["messages"])


def test_a_review_probes_records_and_finishes_on_a_confirmed_walk(tmp_path):
    repo = seeded_rings(tmp_path)
    probe = (
        "print('grad norm', sum(p.grad.norm() for p in model.parameters() if p.grad is not None))"
    )
    script = [
        Reply(tool_calls=[call("run_probe", code=probe)]),
        lambda req: Reply(
            tool_calls=[
                call(
                    "record_finding",
                    category="missing_zero_grad",
                    status="confirmed",
                    confidence="high",
                    file="train.py",
                    line=40,
                    evidence_ids=re.findall(
                        r"observation (E\d+)", req.tool_results()[-1]["content"]
                    ),
                    notes="the probe shows accumulated gradients",
                    why="gradients add up across steps",
                    confirm="zero the grads before backward and compare",
                )
            ]
        ),  # fmt: skip
        lambda req: Reply(
            tool_calls=[
                call(
                    "finish",
                    root_cause=re.search(
                        r"recorded (F\d+)", req.tool_results()[-1]["content"]
                    ).group(1),
                    explanation="accumulated gradients",
                )
            ]
        ),  # fmt: skip
    ]
    with ScriptedLLM(script) as server:
        report, policy, recorder = run_review(repo, server)
    assert policy.stop_reason == "finished" and not server.overruns
    briefing = _first_request_text(server)
    assert "What the planner found:" in briefing and "missing_zero_grad" in briefing
    assert report.policy == "review:scripted"
    planner = [f for f in report.findings if f.recorded_by == "planner"]
    review = [f for f in report.findings if f.recorded_by == "review:scripted"]
    assert planner and len(review) == 1
    assert review[0].evidence[0].source == "probe" and review[0].status == "confirmed"
    assert report.root_cause == review[0].id
    assert [s.tool for s in recorder.steps].count("run_stage_checks") == 7  # the walk


def test_a_review_that_names_no_cause_despite_a_confirmed_defect_is_refused(tmp_path):
    repo = seeded_rings(tmp_path)
    script = [
        Reply(tool_calls=[call("finish", root_cause=None, explanation="nothing to see")]),
        Reply(tool_calls=[call("finish", root_cause="F1", explanation="the walk's finding")]),
    ]
    with ScriptedLLM(script) as server:
        report, policy, _ = run_review(repo, server)
    assert [f.rule for f in policy.failures] == ["finish_before_protocol"]
    assert report.root_cause == "F1"


def test_a_healthy_walk_gets_a_short_review_without_new_findings(tmp_path):
    repo = healthy_rings(tmp_path)
    script = [Reply(tool_calls=[call("finish", root_cause=None, explanation="no weak point")])]
    with ScriptedLLM(script) as server:
        report, policy, _ = run_review(repo, server)
    assert "None stands out" in _first_request_text(server) or "Weak points" in _first_request_text(
        server
    )
    assert report.llm.steps == 1
    assert all(f.status != "confirmed" for f in report.findings)
