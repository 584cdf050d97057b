"""`investigate bench --model`: the LLM policy scored like the planner on a two-case suite
against the scripted server, its usage per case and over the suite, a cache that never
mixes planner and LLM runs (or two LLM modes), and bad LLM options refused up front."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from fakellm import Reply, ScriptedLLM, call

from torch_investigate.evals.bench import run_bench
from torch_investigate.evals.benchmark.records import LLMSpec
from torch_investigate.evals.benchmark.runner import case_job, case_key
from torch_investigate.evals.benchmark.usage import stop_kind
from torch_investigate.evals.seeding.generate import CI_SUITE, SUITE

CASES = ("miniloop-broadcast_mismatch", "clean-miniloop")


@pytest.fixture
def two_cases(tmp_path):
    """A suite of one seeded case and one clean control from the CI subset."""
    manifest = json.loads((SUITE / CI_SUITE / "manifest.json").read_text())
    manifest["cases"] = [c for c in manifest["cases"] if c["id"] == CASES[0]]
    manifest["controls"] = [c for c in manifest["controls"] if c["id"] == CASES[1]]
    for entry in manifest["cases"] + manifest["controls"]:
        entry["path"] = str((SUITE / CI_SUITE / entry["path"]).resolve())
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "manifest.json").write_text(json.dumps(manifest))
    return suite


def review(request) -> Reply:
    """A stateless review (cases run in parallel): finish with the walk's first confirmed
    finding, or with none."""
    brief = request.messages[1]["content"]
    confirmed = re.findall(r"^(F\d+) \[confirmed/", brief, re.MULTILINE)
    root = confirmed[0] if confirmed else None
    return Reply(tool_calls=[call("finish", root_cause=root, explanation="the walk's evidence")])


def test_an_llm_policy_is_scored_with_its_usage_and_cached_apart(two_cases, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # the runs' trajectories
    out = tmp_path / "bench.json"
    with ScriptedLLM(fallback=review) as server:
        spec = LLMSpec(model="scripted", base_url=server.url, price_per_1k="0.001,0.002")
        assert run_bench(two_cases, jobs=2, json_out=out, llm=spec) == 0
        assert len(server.requests) == 2  # one review request per case
        data = json.loads(out.read_text())
        assert data["policy"] == "review:scripted" and "--model scripted" in data["command"]
        assert data["summary"]["mode"] == "llm" and set(data["baselines"]) == {"investigator"}
        for case in data["cases"]:
            usage = case["llm"]
            assert usage["requests"] == 1 and usage["stop_reason"] == "finished"
            assert usage["prompt_tokens"] > 1000 and usage["completion_tokens"] > 0
            assert usage["cost_usd"] == pytest.approx(
                usage["prompt_tokens"] * 1e-6 + usage["completion_tokens"] * 2e-6
            )
        assert all(c["llm"] is None for c in data["baseline_cases"]["investigator"])
        totals = data["summary"]["llm"]
        prompts = sorted(c["llm"]["prompt_tokens"] for c in data["cases"])
        assert totals["median_prompt_tokens"] == sum(prompts) / 2
        assert prompts[0] <= totals["p90_prompt_tokens"] <= prompts[1]
        assert totals["cost_usd"] == pytest.approx(sum(c["llm"]["cost_usd"] for c in data["cases"]))
        assert totals["stop_reasons"] == {"finished": 2} and totals["requests"] == 2
        # the top-1 of the seeded case is scored as for the planner
        seeded = next(c for c in data["cases"] if c["id"] == CASES[0])
        planner = next(c for c in data["baseline_cases"]["investigator"] if c["id"] == CASES[0])
        assert seeded["detected"] == planner["detected"] and seeded["top1"] == planner["top1"]

        # planner and LLM runs of a case live apart, under different keys
        cache = tmp_path / "bench.cache"
        llm_run = json.loads((cache / "llm-review-scripted" / f"{CASES[0]}.json").read_text())
        planner_run = json.loads((cache / "investigator" / f"{CASES[0]}.json").read_text())
        assert llm_run["key"] != planner_run["key"]
        assert llm_run["report"]["policy"] == "review:scripted"
        assert planner_run["report"]["policy"] == "planner"

        # resumed: nothing runs again, nothing is asked of the model
        assert run_bench(two_cases, jobs=2, json_out=out, llm=spec) == 0
        assert len(server.requests) == 2
        assert json.loads(out.read_text())["summary"] == data["summary"]


def test_cache_keys_hold_the_mode_and_the_model():
    folder = SUITE / CI_SUITE / ".." / "cases" / CASES[0]
    review_spec = LLMSpec(model="m")
    keys = {
        case_job("investigator", CASES[0], folder).key,
        case_job("llm", CASES[0], folder, llm=review_spec).key,
        case_job("llm", CASES[0], folder, llm=LLMSpec(model="m", mode="walk")).key,
        case_job("llm", CASES[0], folder, llm=LLMSpec(model="other")).key,
        case_job("llm", CASES[0], folder, llm=LLMSpec(model="m", max_steps=5)).key,
    }
    assert len(keys) == 5
    assert case_job("investigator", CASES[0], folder).key == case_key(folder)
    # the endpoint is where the model is served, not what it is
    served = LLMSpec(model="m", base_url="http://127.0.0.1:9/v1")
    assert (
        case_job("llm", CASES[0], folder, llm=served).key
        == case_job("llm", CASES[0], folder, llm=review_spec).key
    )
    assert (
        review_spec.label == "llm-review-m" and LLMSpec(model="a/b:1").label == "llm-review-a_b_1"
    )
    assert LLMSpec(model="m", mode="walk", max_steps=9).argv() == [
        "--model", "m", "--mode", "walk", "--max-steps", "9",
    ]  # fmt: skip


def test_stop_reasons_are_counted_by_their_kind():
    assert stop_kind("step limit reached (30 model steps, --max-steps 30)") == "step limit reached"
    assert stop_kind("the endpoint failed: HTTP 500") == "the endpoint failed"
    assert stop_kind("finished") == "finished" and stop_kind("") == "unknown"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "walk"], "--mode and the LLM options need --model"),
        (["--max-steps", "3"], "--mode and the LLM options need --model"),
        (["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--max-steps", "0"],
         "--max-steps must be at least 1"),
        (["--model", "m"], "OPENAI_API_KEY is not set"),
    ],
)  # fmt: skip
def test_bad_llm_options_are_one_line_and_exit_2(args, message, tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "bench", str(SUITE / CI_SUITE),
         "--json", str(tmp_path / "b.json"), *args],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "b.cache").exists()  # nothing ran
