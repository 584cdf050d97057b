"""`investigate bench` end to end on the CI subset (three seeded cases and one clean
control, about half a minute), the shape of its JSON, resuming from the cache, and bad
input. The full suite is a documented command (README, Benchmark), not a test."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from torch_investigate.evals.bench import run_bench
from torch_investigate.evals.benchmark.torchfix import version as torchfix_version
from torch_investigate.evals.seeding.generate import CI_SUITE, SUITE

SUMMARY_KEYS = {
    "cases",
    "clean_controls",
    "categories_covered",
    "detection_recall",
    "confirmed_recall",
    "top1",
    "symbol_accuracy",
    "false_alarms",
    "guardrail_violations",
    "median_s",
    "p90_s",
}


@pytest.fixture(scope="module")
def ci_result(tmp_path_factory) -> tuple[Path, dict, float]:
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    started = time.perf_counter()
    assert run_bench(SUITE / CI_SUITE, jobs=2, json_out=out) == 0
    return out, json.loads(out.read_text()), time.perf_counter() - started


def test_ci_subset_scores_and_writes_json(ci_result):
    _, data, _ = ci_result
    summary = data["summary"]
    assert SUMMARY_KEYS <= set(summary)
    assert summary["cases"] >= 3 and summary["clean_controls"] == 1
    # what the CI subset must score: each seeded defect confirmed as the root cause at the
    # seeded symbol, nothing confirmed on the clean control
    assert summary["detection_recall"] == 1.0 and summary["confirmed_recall"] == 1.0
    assert summary["top1"] == 1.0 and summary["symbol_accuracy"] == 1.0
    assert summary["false_alarms"] == 0 and summary["clean_controls_flagged"] == 0
    assert summary["errors"] == 0
    assert set(data["baselines"]) == {"static_only"} | (
        {"torchfix"} if torchfix_version() else set()
    )
    assert SUMMARY_KEYS <= set(data["baselines"]["static_only"])
    assert len(data["cases"]) == summary["cases"] + summary["clean_controls"]
    assert {row["category"] for row in data["categories"]} == {
        c["category"] for c in data["cases"] if c["kind"] == "buggy"
    }
    for case in data["cases"]:
        assert case["seconds"] > 0 and case["exit_code"] in (0, 1, 3)


def test_a_resumed_run_reuses_the_cache(ci_result):
    out, data, _ = ci_result
    assert (out.parent / "bench.cache" / "investigator").is_dir()
    started = time.perf_counter()
    assert run_bench(SUITE / CI_SUITE, jobs=2, json_out=out) == 0
    assert time.perf_counter() - started < 10
    again = json.loads(out.read_text())
    assert again["summary"] == data["summary"]


def test_bad_input_exits_2(tmp_path, capsys):
    assert run_bench(tmp_path, jobs=2) == 2
    assert "manifest.json" in capsys.readouterr().err
    assert run_bench(SUITE / CI_SUITE, jobs=0) == 2
    (tmp_path / "manifest.json").write_text("{not json")
    assert run_bench(tmp_path, jobs=1) == 2


def test_the_cli_wires_run_bench(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "bench", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "manifest.json" in done.stderr
