"""`investigate PATH --model ...` and `investigate replay` as a user runs them: exit
codes, one-line errors, trajectories outside the repo, replay equal to the report."""

import json
import os
import subprocess
import sys

import pytest
from fakellm import HTTPError, ProtocolWalker, Reply, ScriptedLLM
from fakellm.helpers import KEY, seeded_rings


def investigate(*args, env_extra=None, cache=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(OPENAI_API_KEY=KEY, XDG_CACHE_HOME=str(cache), TERM="dumb")
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", *map(str, args)],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def files_of(repo):
    return sorted(p.relative_to(repo) for p in repo.rglob("*"))


def test_an_llm_run_saves_a_trajectory_outside_the_repo_and_replays(tmp_path):
    repo = seeded_rings(tmp_path)
    before = files_of(repo)
    cache = tmp_path / "cache"
    with ScriptedLLM(fallback=ProtocolWalker()) as server:
        done = investigate(repo, "--model", "scripted", "--base-url", server.url, "--static-only",
                           "--mode", "walk", "-f", "json", "-q", cache=cache)  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["policy"] == "llm:scripted"
    assert report["llm"]["steps"] == len(server.requests) and report["llm"]["model"] == "scripted"
    (line,) = [ln for ln in done.stderr.splitlines() if "trajectory saved to" in ln]
    path = line.split("trajectory saved to ", 1)[1].strip()
    assert path.startswith(str(cache / "torch-investigate" / "trajectories"))
    assert files_of(repo) == before  # nothing written into the repo
    saved = json.loads(open(path).read())
    assert saved["format"] == "torch-investigate-trajectory" and saved["format_version"] == "1.1"
    assert saved["model"] == "scripted" and saved["stop_reason"] == "finished"
    assert saved["messages"][0]["role"] == "system" and saved["tool_calls"]
    assert KEY not in open(path).read()
    replayed = investigate("replay", path, "--format", "json", cache=cache)
    assert replayed.returncode == 0
    assert json.loads(replayed.stdout) == report
    md = investigate("replay", path, cache=cache)
    assert md.returncode == 0 and md.stdout.startswith("# torch-investigate")


def test_a_401_is_one_clear_line_and_exit_2_without_retry(tmp_path):
    repo = seeded_rings(tmp_path)
    body = f"Incorrect API key provided: {KEY}"
    with ScriptedLLM([HTTPError(401, body), Reply(content="never")]) as server:
        done = investigate(repo, "--model", "gpt-4o-mini", "--base-url", server.url,
                           "--static-only", "-q", cache=tmp_path / "c")  # fmt: skip
    assert done.returncode == 2
    assert len(server.requests) == 1
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("investigate: error:")]
    assert len(errors) == 1 and "HTTP 401" in errors[0] and "OPENAI_API_KEY" in errors[0]
    assert KEY not in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
    # the trajectory of the failed run is kept, with the error
    (line,) = [ln for ln in done.stderr.splitlines() if "trajectory saved to" in ln]
    saved = json.loads(open(line.split("trajectory saved to ", 1)[1].strip()).read())
    assert "HTTP 401" in saved["error"] and saved["report"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--price-per-1k", "cheap"], "--price-per-1k"),
        (["--max-steps", "0"], "--max-steps must be at least 1"),
        (["--trajectory", "{repo}/t.json"], "inside the repo"),
    ],
)
def test_bad_llm_options_exit_2_before_anything_runs(tmp_path, args, message):
    repo = seeded_rings(tmp_path)
    args = [a.format(repo=repo) for a in args]
    done = investigate(repo, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", *args,
                       "--static-only", cache=tmp_path / "c")  # fmt: skip
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (repo / "t.json").exists()


def test_no_key_and_no_endpoint_is_exit_2(tmp_path):
    repo = seeded_rings(tmp_path)
    done = investigate(repo, "--model", "gpt-4o", "--static-only",
                       env_extra={"OPENAI_API_KEY": ""}, cache=tmp_path / "c")  # fmt: skip
    assert done.returncode == 2 and "OPENAI_API_KEY is not set" in done.stderr


def test_replay_of_a_bad_file_is_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    done = investigate("replay", bad, cache=tmp_path)
    assert done.returncode == 2 and "is not a trajectory" in done.stderr
    future = tmp_path / "future.json"
    future.write_text('{"format": "torch-investigate-trajectory", "format_version": "2.0"}')
    done = investigate("replay", future, cache=tmp_path)
    assert done.returncode == 2 and "format 2.x" in done.stderr
    missing = investigate("replay", tmp_path / "missing.json", cache=tmp_path)
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_without_a_model_nothing_changes(tmp_path):
    repo = seeded_rings(tmp_path)
    cache = tmp_path / "cache"
    done = investigate(repo, "--static-only", "-q", cache=cache)
    assert done.returncode == 0
    assert "trajectory" not in done.stderr and not cache.exists()
    traj = tmp_path / "planner.json"
    done = investigate(repo, "--static-only", "-q", "--trajectory", traj, cache=cache)
    saved = json.loads(traj.read_text())
    assert saved["policy"] == "planner" and saved["messages"] == []
    assert [s["tool"] for s in saved["tool_calls"]][0] == "run_stage_checks"
    replayed = investigate("replay", traj, "-f", "json", cache=cache)
    assert json.loads(replayed.stdout)["policy"] == "planner"
