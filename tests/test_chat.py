"""`investigate chat` through a pseudo-terminal, as a person uses it: planner-driven
commands without a model, questions answered by a (scripted) model with one, and clean
exits on /quit, Ctrl-D and Ctrl-C that leave no sandbox behind."""

import json
import os
import re
import sys
import time

import pexpect
import pytest
from fakellm import Delay, Reply, ScriptedLLM, call
from fakellm.helpers import KEY, seeded_rings

PROMPT = r"(stage \d|done)> "
MORE = r"-- \d+ more lines: Enter shows the next page, q stops --"


def spawn(tmp_path, *args, **env_extra):
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(
        TERM="dumb", TMPDIR=str(tmp), XDG_CACHE_HOME=str(tmp_path / "cache"), OPENAI_API_KEY=KEY
    )
    env.update(env_extra)
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


def flat(text: str) -> str:
    """Output with its whitespace collapsed: tool lines wrap between words at the
    terminal's width, which differs between machines."""
    return " ".join(text.split())


def leftovers(tmp_path) -> list[str]:
    """Workspace and sandbox folders the session left in its TMPDIR."""
    return [p.name for p in (tmp_path / "tmp").iterdir() if p.name.startswith("ti-")]


def transcript(tmp_path) -> dict:
    (path,) = (tmp_path / "cache" / "torch-investigate" / "chats").glob("*.json")
    return json.loads(path.read_text())


def markdown_transcript(tmp_path) -> str:
    (path,) = (tmp_path / "cache" / "torch-investigate" / "chats").glob("*.md")
    return path.read_text()


def test_commands_walk_the_protocol_without_a_model(tmp_path):
    repo = seeded_rings(tmp_path)
    before = sorted(p.name for p in repo.rglob("*"))
    child = spawn(tmp_path, repo, "--steps", "40")
    assert "Stage 1 of 8: Symptom" in child.before and "commands only" in child.before
    (where,) = [ln for ln in child.before.splitlines() if ln.startswith("transcript: ")]
    assert where.strip().endswith(".md") and "torch-investigate/chats" in where
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
    out = say(child, "/evidence")  # no id: the findings, to pick one
    assert "F1 [confirmed, high]" in out and "/evidence F1 shows" in out
    child.sendline("/report")  # drawn for the terminal, a page at a time
    child.expect(MORE)
    first = child.before
    assert "torch-investigate:" in first and "# torch" not in first  # drawn, not the source
    assert len(first.splitlines()) <= 25  # a dumb terminal: 25 lines
    pages = [first]
    while True:
        child.sendline("")
        if child.expect([MORE, PROMPT]) == 1:
            break
        pages.append(child.before)
    assert len(pages) > 2 and "A. Most likely root cause" in "".join(pages)
    child.sendline("/report")
    child.expect(MORE)
    child.sendline("q")  # stops paging
    child.expect(PROMPT)
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
    # a command's output is the tool's, never the investigator's words
    outputs = {e["command"] for e in record["entries"] if e["role"] == "output"}
    assert {"/stage", "/next", "/evidence F1", "/report"} <= outputs
    assert not [e for e in record["entries"] if e["role"] == "investigator"]
    md = markdown_transcript(tmp_path)
    assert "**You:** /stage" in md and "**Output of `/stage`** (the tool's output" in md
    assert "- tool: run_probe(code=" in md and "- tool: run_stage_checks(stage=1): " in md
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
        Reply(
            tool_calls=[
                call("advance_stage", stage=1, verdict="inconclusive", reason="static only")
            ]
        ),
        Reply(content="Stage 1 is closed as inconclusive: nothing ran."),
        # asked to declare it solved: finish was not asked for, so the chat refuses it
        Reply(tool_calls=[call("finish", root_cause=None, explanation="solved")]),
        Reply(content="I cannot call it solved."),
        # asked to finish: the call goes through to the protocol, whose guardrail refuses
        Reply(tool_calls=[call("finish", root_cause=None, explanation="solved")]),
        Reply(content="I cannot finish: stage 2 is still open."),
    ]
    with ScriptedLLM(script) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url
        )
        assert "model scripted" in child.before
        out = flat(say(child, "why do you think the optimizer never resets the gradients?"))
        assert "running read_code(target='train.py:main')... 0 s" in out  # the status line
        assert re.search(r"· read_code\(target='train.py:main'\): \d+ lines", out)
        assert "never zero_grad (train.py:46)" in out
        out = flat(say(child, "next"))
        assert re.search(r"run_stage_checks\(stage=1\): \d+ items, 0 failed, candidates none", out)
        assert (
            "advance_stage(stage=1, verdict='inconclusive', reason='static only'): stage 1" in out
        )
        assert "Stage 2 of 8" in out and child.after == "stage 2> "
        out = flat(say(child, "call it solved"))
        assert "finish(root_cause=None, explanation='solved'): refused (finish_not_asked)" in out
        assert "I cannot call it solved" in out
        out = flat(say(child, "then please finish"))
        assert "refused (finish_before_protocol)" in out and "I cannot finish" in out
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
    assert record["usage"]["refusals"] == 2
    refused = [e["refused"] for e in record["entries"] if e["role"] == "tool" and e["refused"]]
    assert refused == ["finish_not_asked", "finish_before_protocol"]
    answers = [e["text"] for e in record["entries"] if e["role"] == "investigator"]
    assert answers[-1] == "I cannot finish: stage 2 is still open."
    assert "**Investigator (scripted):**" in markdown_transcript(tmp_path)
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


LONG = (
    "The training loop in train.py calls loss.backward() and optimizer.step() on every "
    "batch but never resets the gradients, so each step applies the sum of all earlier "
    "gradients; a probe of the gradient norm after three steps would show it growing."
)


def test_the_model_works_visibly_answers_wrapped_and_finishes_only_when_asked(tmp_path):
    repo = seeded_rings(tmp_path)
    script = [
        Delay(1.6, Reply(tool_calls=[call("search_code", pattern="zero_grad")])),
        Reply(content=LONG),
        Reply(tool_calls=[call("finish", root_cause=None, explanation="done")]),
        Reply(content="Understood."),
        Reply(content="Read the report with /report."),
    ]
    with ScriptedLLM(script) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url,
            COLUMNS="60", LINES="30",
        )  # fmt: skip
        child.sendline("why is the loss flat?")
        child.expect(r"thinking\.\.\. 1 s")  # the status line while the model is asked
        child.expect(PROMPT)
        out = child.before
        assert "running search_code(pattern='zero_grad')... 0 s" in out
        shown = " ".join(ln.rstrip("\r").split("\r")[-1].strip() for ln in out.split("\n"))
        assert "· search_code(pattern='zero_grad'): No matches for 'zero_grad'" in shown
        answer = out[out.index("The training loop") :].split("Stage 1 of 8")[0]
        lines = [ln.strip() for ln in answer.replace("\r", "").split("\n") if ln.strip()]
        assert len(lines) >= 3 and all(len(ln) <= 60 for ln in lines)
        assert " ".join(lines) == LONG  # broken between words, nothing lost or split
        out = say(child, "looks fine, stop here")  # not a request to finish
        assert "refused (finish_not_asked)" in " ".join(out.split())  # a wrapped tool line
        for _ in range(8):  # the planner closes every stage (static only: inconclusive)
            out = say(child, "/next")
        assert out.count("The investigation is finished") == 1 and child.after == "done> "
        out = say(child, "what now?")  # the finished headline is not repeated
        assert "Read the report" in out and "The investigation is finished" not in out
        child.sendline("/quit")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0 and server.overruns == 0


def test_finish_without_a_model_closes_what_is_open(tmp_path):
    repo = seeded_rings(tmp_path)
    child = spawn(tmp_path, repo, "--static-only")
    out = say(child, "/finish")
    assert "Closed as inconclusive, not examined: stage 1, 2, 3, 4, 5, 6, 7" in out
    assert "The investigation is finished" in out and child.after == "done> "
    assert "The investigation is finished" in say(child, "/finish")  # already finished
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    ("text", "asked"),
    [("/finish", True), ("please finish", True), ("Conclude now", True), ("wrap it up", True),
     ("wrap up please", True), ("call it solved", False), ("finished yet?", False),
     ("what is the conclusion?", False)],
)  # fmt: skip
def test_what_counts_as_asking_to_finish(text, asked):
    from torch_investigate.agent.chat.session import asks_to_finish

    assert asks_to_finish(text) is asked


def test_finish_closes_only_the_stages_the_model_names_and_tool_lines_wrap(tmp_path):
    """Issue 20, points 13 and 14: asked to finish, the model closes stage 1 and names
    stage 3 by mistake: that call is refused (said once), stage 2 stays open, and every
    tool line is broken between words at the terminal's width."""
    repo = seeded_rings(tmp_path)
    reason = "nothing ran in this static-only session, so no runtime item could be checked"
    script = [
        Reply(tool_calls=[
            call("advance_stage", stage=1, verdict="inconclusive", reason=reason),
            call("advance_stage", stage=3, verdict="inconclusive", reason="not traced"),
        ]),
        Reply(content="Closed stage 1; stage 2 is still open."),
    ]  # fmt: skip
    with ScriptedLLM(script) as server:
        child = spawn(
            tmp_path, repo, "--static-only", "--model", "scripted", "--base-url", server.url,
            COLUMNS="60", LINES="30",
        )  # fmt: skip
        out = say(child, "/finish")
        assert child.after == "stage 2> "
        lines = [ln.rstrip("\r").split("\r")[-1].rstrip() for ln in out.split("\n")]  # as shown
        tool = lines[next(i for i, ln in enumerate(lines) if "· advance_stage" in ln) :]
        tool = tool[: next(i for i, ln in enumerate(tool) if "Closed stage 1;" in ln)]
        assert tool and all(len(ln) <= 60 for ln in tool)
        said = " ".join(ln.strip() for ln in tool)
        assert "stage 1 closed as inconclusive; now at stage 2 (Data)" in said
        assert said.count("refused (stage_order)") == 1
        assert "refused (stage_order): advance_stage names stage 3, but the open stage" in said
        child.sendline("/quit")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0 and server.overruns == 0
