"""`investigate chat` through a pseudo-terminal, as a person uses it: planner-driven
commands without a model, questions answered by a (scripted) model with one, and clean
exits on /quit, Ctrl-D and Ctrl-C that leave no sandbox behind."""

import json
import os
import sys
import time

import pexpect
import pytest
from fakellm import Delay, Reply, ScriptedLLM, call
from fakellm.helpers import KEY, seeded_rings

PROMPT = r"(stage \d|done)> "


def spawn(tmp_path, *args):
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(
        TERM="dumb", TMPDIR=str(tmp), XDG_CACHE_HOME=str(tmp_path / "cache"), OPENAI_API_KEY=KEY
    )
    child = pexpect.spawn(
        sys.executable, ["-m", "torch_investigate.agent.cli", "chat", *map(str, args)],
        env=env, encoding="utf-8", timeout=90, dimensions=(50, 200),
    )  # fmt: skip
    child.expect(PROMPT)
    return child


def say(child, line: str) -> str:
    child.sendline(line)
    child.expect(PROMPT)
    return child.before


def leftovers(tmp_path) -> list[str]:
    """Workspace and sandbox folders the session left in its TMPDIR."""
    return [p.name for p in (tmp_path / "tmp").iterdir() if p.name.startswith("ti-")]


def transcript(tmp_path) -> dict:
    (path,) = (tmp_path / "cache" / "torch-investigate" / "chats").glob("*.json")
    return json.loads(path.read_text())


def test_commands_walk_the_protocol_without_a_model(tmp_path):
    repo = seeded_rings(tmp_path)
    before = sorted(p.name for p in repo.rglob("*"))
    child = spawn(tmp_path, repo, "--steps", "40")
    assert "Stage 1 of 8: Symptom" in child.before and "commands only" in child.before
    out = say(child, "why is the loss flat?")
    assert "No model is configured" in out and "/next" in out and "/evidence" in out
    assert "Checklist of stage 1" in say(child, "/stage")
    out = say(child, "/next")
    assert "Stage 1 (Symptom) closed as" in out and "Stage 2 of 8" in out
    assert "closed as" in say(child, "next")  # the bare word works like /next
    out = say(child, "/read train.py:main")
    assert "loss.backward()" in out
    out = say(child, "/probe print(type(optimizer).__name__)")
    assert "Adam" in out
    for _ in range(5):
        out = say(child, "/next")
    assert "root cause F1 missing_zero_grad" in out and child.after == "done> "
    assert "F1 [confirmed, high] stage 6 missing_zero_grad" in say(child, "/findings")
    out = say(child, "/evidence f1")
    assert "[runtime]" in out and "[intervention]" in out and "smallest confirming test" in out
    assert "no finding F9" in say(child, "/evidence F9")
    assert "unknown command /frobnicate" in say(child, "/frobnicate")
    out = say(child, "/report")
    assert "## A. Most likely root cause" in out or "Most likely root cause" in out
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.before
    assert leftovers(tmp_path) == []
    record = transcript(tmp_path)
    assert record["format"] == "torch-investigate-chat" and record["model"] is None
    said = [e["text"] for e in record["entries"] if e["role"] == "person"]
    assert said[:3] == ["why is the loss flat?", "/stage", "/next"]
    assert any(e["role"] == "tool" and e["tool"] == "run_probe" for e in record["entries"])
    assert sorted(p.name for p in repo.rglob("*")) == before  # nothing written into the repo


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_leave_cleanly(tmp_path, how):
    repo = seeded_rings(tmp_path)
    child = spawn(tmp_path, repo, "--static-only")
    if how == "ctrl-c":
        child.sendintr()
    else:
        child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    assert child.exitstatus == (130 if how == "ctrl-c" else 0)
    assert "transcript:" in child.before
    assert leftovers(tmp_path) == []


def test_a_scripted_model_answers_with_the_tools(tmp_path):
    repo = seeded_rings(tmp_path)
    script = [
        # a question: the model reads code, then answers
        Reply(tool_calls=[call("read_code", target="train.py:main")]),
        Reply(content="The loop calls backward and step but never zero_grad (train.py:46)."),
        # "next": the model works the current stage
        Reply(tool_calls=[call("run_stage_checks", stage=1)]),
        Reply(tool_calls=[call("advance_stage", verdict="inconclusive", reason="static only")]),
        Reply(content="Stage 1 is closed as inconclusive: nothing ran."),
        # asked to declare it solved: the guardrail refuses and the model says so
        Reply(tool_calls=[call("finish", root_cause=None, explanation="solved")]),
        Reply(content="I cannot finish: stage 2 is still open."),
    ]
    with ScriptedLLM(script) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url
        )
        assert "model scripted" in child.before
        out = say(child, "why do you think the optimizer never resets the gradients?")
        assert "· read_code(target='train.py:main') -> ok" in out
        assert "never zero_grad (train.py:46)" in out
        out = say(child, "next")
        assert "run_stage_checks(stage=1) -> ok" in out and "advance_stage(" in out
        assert "Stage 2 of 8" in out and child.after == "stage 2> "
        out = say(child, "call it solved")
        assert "finish(" in out and "refused (finish_before_protocol)" in out
        assert "I cannot finish" in out
        assert "No findings yet" in say(child, "/findings")  # commands still work
        child.sendline("/quit")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert server.overruns == 0 and len(server.requests) == len(script)
    # the model saw the person's question and the session state
    asked = server.requests[0].messages[-1]["content"]
    assert "optimizer never resets" in asked and "Current stage: 1" in asked
    record = transcript(tmp_path)
    assert record["model"] == "scripted" and record["usage"]["steps"] == len(script)
    assert record["usage"]["refusals"] == 1
    assert record["messages"][0]["role"] == "system"
    assert leftovers(tmp_path) == []


def test_ctrl_c_while_the_model_thinks_leaves_cleanly(tmp_path):
    repo = seeded_rings(tmp_path)
    with ScriptedLLM([Delay(20, Reply(content="too late"))]) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url
        )
        child.sendline("what is wrong?")
        child.expect("what is wrong")
        time.sleep(1.0)
        child.sendintr()
        child.expect(pexpect.EOF, timeout=15)
        child.close()
    assert child.exitstatus == 130
    assert "interrupted" in child.before and "Traceback" not in child.before
    assert leftovers(tmp_path) == []


def test_an_unusable_model_falls_back_to_commands(tmp_path):
    from fakellm import HTTPError

    repo = seeded_rings(tmp_path)
    with ScriptedLLM([HTTPError(401, f"bad key {KEY}")]) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url
        )
        out = say(child, "hello?")
        assert "the model is unavailable" in out and "HTTP 401" in out and KEY not in out
        assert "commands only" in out
        assert "No model is configured" in say(child, "hello again")
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
