"""The network seam: the real `openai` client against a scripted local server.

Retries with backoff on 429/5xx/timeouts (honouring Retry-After), none on 401/403 or
other 4xx; the API key never appears in an error.
"""

import pytest
from fakellm import Delay, HTTPError, Reply, ScriptedLLM, call

from torch_investigate.agent.core.toolbox import TOOLS
from torch_investigate.agent.llm.client import ChatClient
from torch_investigate.agent.llm.errors import LLMConfigError, LLMRequestError, LLMUnavailable
from torch_investigate.agent.llm.retry import backoff
from torch_investigate.agent.llm.settings import LLMSettings

KEY = "sk-test-abcdefghijklmnop1234"
TOOL_SCHEMAS = [t.schema() for t in TOOLS]
MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]


def client(server, waits, **kw):
    settings = LLMSettings(model="scripted", base_url=server.url, api_key=KEY, backoff_s=0.5, **kw)
    return ChatClient(settings, sleep=waits.append)


def test_a_completion_with_tool_calls_and_usage():
    reply = Reply(tool_calls=[call("run_stage_checks", stage=1)], prompt_tokens=7000)
    with ScriptedLLM([reply]) as s:
        done = client(s, []).complete(MESSAGES, TOOL_SCHEMAS)
    (tc,) = done.message.tool_calls
    assert (tc.name, tc.arguments) == ("run_stage_checks", '{"stage": 1}')
    assert done.prompt_tokens == 7000 and done.usage_reported
    body = s.requests[0].body
    assert body["model"] == "scripted" and body["tool_choice"] == "auto"
    assert [t["function"]["name"] for t in body["tools"]] == [t.name for t in TOOLS]
    assert s.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_429_is_retried_after_the_servers_retry_after():
    script = [HTTPError(429, "slow down", {"Retry-After": "3"}), Reply(content="ok")]
    waits: list[float] = []
    with ScriptedLLM(script) as s:
        c = client(s, waits)
        assert c.complete(MESSAGES, TOOL_SCHEMAS).message.content == "ok"
    assert waits == [3.0]
    assert len(s.requests) == 2
    assert [(r.attempt, r.reason) for r in c.retries] == [(1, "HTTP 429")]


def test_5xx_is_retried_with_exponential_backoff():
    script = [HTTPError(500), HTTPError(503), HTTPError(502), Reply(content="ok")]
    waits: list[float] = []
    with ScriptedLLM(script) as s:
        client(s, waits).complete(MESSAGES, TOOL_SCHEMAS)
    assert len(s.requests) == 4
    assert len(waits) == 3
    for i, w in enumerate(waits):  # 0.5, 1, 2 plus at most 25% jitter
        assert 0.5 * 2**i <= w <= 0.5 * 2**i * 1.25


def test_a_timeout_is_retried():
    with ScriptedLLM([Delay(1.5, Reply(content="late")), Reply(content="ok")]) as s:
        c = client(s, [], timeout_s=0.3)
        assert c.complete(MESSAGES, TOOL_SCHEMAS).message.content == "ok"
    assert [r.reason for r in c.retries] == ["timeout"]


def test_persistent_timeouts_give_up_after_max_retries():
    script = [Delay(1.0, Reply(content="late")) for _ in range(3)]
    with ScriptedLLM(script) as s, pytest.raises(LLMUnavailable, match="after 2 retries: timeout"):
        client(s, [], timeout_s=0.2, max_retries=2).complete(MESSAGES, TOOL_SCHEMAS)
    assert len(s.requests) == 3


@pytest.mark.parametrize("status", [401, 403])
def test_401_and_403_are_not_retried_and_never_show_the_key(status):
    body = f"Incorrect API key provided: {KEY}. Also sk-abc***wxyz1234."
    with ScriptedLLM([HTTPError(status, body), Reply(content="never")]) as s:
        with pytest.raises(LLMConfigError) as e:
            client(s, []).complete(MESSAGES, TOOL_SCHEMAS)
    assert len(s.requests) == 1
    assert e.value.exit_code == 2
    assert f"HTTP {status}" in e.value.message and "OPENAI_API_KEY" in e.value.message
    assert KEY not in e.value.message and "sk-abc" not in e.value.message
    assert "\n" not in e.value.message


def test_other_4xx_are_not_retried():
    with ScriptedLLM([HTTPError(400, "context too long"), Reply(content="never")]) as s:
        with pytest.raises(LLMRequestError, match="HTTP 400.*context too long"):
            client(s, []).complete(MESSAGES, TOOL_SCHEMAS)
    assert len(s.requests) == 1


def test_a_retry_after_beyond_the_limit_ends_instead_of_waiting():
    script = [HTTPError(429, "quota", {"Retry-After": "3600"})]
    with ScriptedLLM(script) as s, pytest.raises(LLMUnavailable, match="asked to wait 3600"):
        client(s, [], max_wait_s=60).complete(MESSAGES, TOOL_SCHEMAS)


def test_missing_usage_is_estimated():
    with ScriptedLLM([Reply(content="x" * 400, usage=False)]) as s:
        done = client(s, []).complete(MESSAGES, TOOL_SCHEMAS)
    assert not done.usage_reported and done.completion_tokens >= 100


def test_backoff_doubles_and_is_capped():
    assert [backoff(a, 1.0, 5.0, jitter=0) for a in range(5)] == [1, 2, 4, 5, 5]
    assert backoff(0, 1.0, 5.0, jitter=1) == 1.25


def test_settings_need_a_key_or_a_local_endpoint(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY is not set"):
        LLMSettings.from_env("gpt-4o-mini")
    local = LLMSettings.from_env("llama3", base_url="http://user:pw@localhost:11434/v1")
    assert local.endpoint == "http://localhost:11434/v1"  # no credentials in what is saved
    assert "api_key" not in local.model_dump()
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    s = LLMSettings.from_env("gpt-4o-mini", max_steps=5, max_tokens=None)
    assert s.max_steps == 5 and s.max_tokens == 1_000_000
    assert KEY not in repr(s) and KEY not in s.model_dump_json()


def test_prompt_tokens_count_the_tool_schemas():
    """Issue 20, point 12: an endpoint whose usage leaves the tool schemas out (a file
    bridge that counts the messages only) is still counted for them, and so is an endpoint
    that sends no usage; a larger count from the endpoint stands as it is."""
    from torch_investigate.agent.llm.client import estimate_prompt_tokens, schema_tokens

    schemas = schema_tokens(TOOL_SCHEMAS)
    script = [Reply(content="a", prompt_tokens=3), Reply(content="b", usage=False),
              Reply(content="c", prompt_tokens=99_999)]  # fmt: skip
    with ScriptedLLM(script) as s:
        c = client(s, [])
        low, none, high = (c.complete(MESSAGES, TOOL_SCHEMAS) for _ in range(3))
    assert schemas > 1000  # the schemas are most of a short request
    assert low.prompt_tokens == none.prompt_tokens == estimate_prompt_tokens(MESSAGES, TOOL_SCHEMAS)
    assert low.prompt_tokens >= schemas and low.schema_tokens == schemas
    assert high.prompt_tokens == 99_999


def test_bench_reports_prompt_tokens_with_the_schemas():
    from torch_investigate.evals.benchmark.records import CaseLLM, LLMSpec
    from torch_investigate.evals.benchmark.table import usage_line
    from torch_investigate.evals.benchmark.usage import case_usage, totals
    from torch_investigate.tools.records import LLMUsage

    class Case:  # what totals() reads of a case's score
        def __init__(self, llm: CaseLLM) -> None:
            self.llm = llm

    usage = LLMUsage(model="m", steps=4, prompt_tokens=9000, schema_tokens=1600)
    report = type("R", (), {"llm": usage})()
    case = case_usage(report)
    assert case.schema_tokens == 1600
    line = usage_line(totals(LLMSpec(model="m"), [Case(case)]))
    assert "prompt tokens median 9,000" in line and "tool schemas included, about 1,600" in line
