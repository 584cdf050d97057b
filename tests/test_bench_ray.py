"""`investigate bench --ray`: the same cases as Ray tasks give the same runs and scores
as the local executor, share its cache, and need no shared filesystem (the case's
files travel with the task). Without Ray installed, --ray says how to get it.

The Ray tests start a local instance (about 30 s on 2 busy cores) and run the CI subset
twice, so they are slow; the rest run by default."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from torch_investigate.agent.cli.subcommands import bare_ray
from torch_investigate.evals.bench import run_bench
from torch_investigate.evals.benchmark.runner import case_job, case_key
from torch_investigate.evals.seeding.generate import CI_SUITE, SUITE

CI = SUITE / CI_SUITE
# torch-investigate is not on the package index: the hint installs this checkout's extra
INSTALL = "-m pip install -e"
WRONG = "pip install 'torch-investigate[ray]'"


def _block_ray(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    monkeypatch.delitem(
        sys.modules, "torch_investigate.evals.benchmark.ray_executor", raising=False
    )


def test_without_ray_the_flag_says_how_to_install_it(monkeypatch, capsys):
    _block_ray(monkeypatch)
    assert run_bench(CI, jobs=2, ray="local") == 2
    err = capsys.readouterr().err.strip()
    assert INSTALL in err and "[ray]" in err and WRONG not in err and len(err.splitlines()) == 1


def test_the_cli_without_ray_exits_2_with_one_line():
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from torch_investigate.agent.cli.main import main\n"
        f"sys.argv = ['investigate', 'bench', {str(CI)!r}, '--ray']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("investigate bench: error: --ray needs Ray, an optional extra: ")
    assert INSTALL in line and "[ray]" in line and WRONG not in line


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["bench", "--ray"], ["bench", "--ray", "local"]),
        (["bench", "--ray", "--jobs", "3"], ["bench", "--ray", "local", "--jobs", "3"]),
        (["bench", "--ray", str(CI)], ["bench", "--ray", "local", str(CI)]),
        (["bench", str(CI), "--ray", "auto"], ["bench", str(CI), "--ray", "auto"]),
        (["bench", "--ray", "ray://head:10001"], ["bench", "--ray", "ray://head:10001"]),
        (["run", ".", "--ray"], ["run", ".", "--ray"]),  # only bench has --ray
    ],
)
def test_a_bare_ray_flag_means_a_local_instance(argv, expected):
    assert bare_ray(argv) == expected


def test_cpus_per_case_is_checked_before_ray_starts(capsys):
    assert run_bench(CI, ray="local", ray_cpus_per_case=0) == 2
    assert "--ray-cpus-per-case must be positive" in capsys.readouterr().err
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "bench", str(CI),
         "--ray-cpus-per-case", "0.25"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "--ray-cpus-per-case needs --ray" in done.stderr


# --- with Ray installed --------------------------------------------------------------

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="ray is not installed (pip install -e '.[ray]')",
)


@needs_ray
@pytest.mark.parametrize("address", ["127.0.0.1:1", "ray://127.0.0.1:1"])
def test_an_unreachable_cluster_is_one_line_at_once(address, capsys):
    started = time.perf_counter()
    assert run_bench(CI, ray=address) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"investigate bench: error: cannot reach the Ray cluster at {address}")
    assert len(err.splitlines()) == 1 and time.perf_counter() - started < 20


_SECONDS = re.compile(r"\bin \d+(\.\d+)? s\b")  # "ran 300 optimizer steps ... in 2.4 s"


def _timeless(run: dict) -> str:
    """A cached run without what the clock decides: the run's and the report's timings,
    its creation time, each training run's wall time."""
    run = json.loads(json.dumps(run))
    run.pop("seconds")
    report = run.get("report") or {}
    report.pop("created_at", None)
    report.pop("timings", None)
    for training in report.get("runs", []):
        training.pop("wall_s", None)
    return _SECONDS.sub("in N s", json.dumps(run, sort_keys=True))


def _runs(cache: Path) -> dict[str, dict]:
    return {f"{p.parent.name}/{p.stem}": json.loads(p.read_text()) for p in cache.glob("*/*.json")}


def _scores(result: dict) -> dict[str, dict]:
    cases = [*result["cases"], *(c for cs in result["baseline_cases"].values() for c in cs)]
    return {f"{c['mode']}/{c['id']}": {**c, "seconds": None} for c in cases}


@pytest.fixture(scope="module")
def local_and_ray(tmp_path_factory) -> tuple[Path, dict, dict]:
    out = tmp_path_factory.mktemp("bench-ray")
    assert run_bench(CI, jobs=2, json_out=out / "local.json") == 0
    assert run_bench(CI, jobs=2, json_out=out / "ray.json", ray="local") == 0
    local, on_ray = (json.loads((out / f"{n}.json").read_text()) for n in ("local", "ray"))
    return out, local, on_ray


@pytest.mark.slow
@needs_ray
def test_ray_scores_and_findings_match_the_local_run(local_and_ray):
    _, local, on_ray = local_and_ray
    assert on_ray["summary"]["errors"] == 0
    assert "--ray" in on_ray["command"]
    assert _scores(on_ray) == _scores(local)
    assert {k: v for k, v in on_ray["summary"].items() if not k.endswith("_s")} == {
        k: v for k, v in local["summary"].items() if not k.endswith("_s")
    }


@pytest.mark.slow
@needs_ray
def test_ray_runs_are_the_local_runs_but_for_timings(local_and_ray):
    out, _, _ = local_and_ray
    local, on_ray = _runs(out / "local.cache"), _runs(out / "ray.cache")
    assert set(on_ray) == set(local) and len(local) >= 8
    for name, run in local.items():
        assert _timeless(on_ray[name]) == _timeless(run), name
        if run["mode"] != "torchfix":
            assert run["report"]["findings"] == on_ray[name]["report"]["findings"]
            assert run["report"]["repo"] == on_ray[name]["report"]["repo"]


@pytest.mark.slow
@needs_ray
def test_a_ray_run_leaves_the_cache_a_local_run_resumes_from(local_and_ray, tmp_path):
    out, _, on_ray = local_and_ray
    shutil.copytree(out / "ray.cache", tmp_path / "again.cache")
    started = time.perf_counter()
    assert run_bench(CI, jobs=2, json_out=tmp_path / "again.json") == 0
    assert time.perf_counter() - started < 20  # all cached: no investigation ran
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["summary"] == on_ray["summary"]


@pytest.mark.slow
@needs_ray
def test_a_task_carries_its_case_and_needs_no_shared_folder(tmp_path):
    from torch_investigate.evals.benchmark.ray_executor import connect

    source = SUITE / "cases" / "rings-loss_args_swapped"  # static checks find this one
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    job = case_job("static_only", source.name, folder)
    assert job.key == case_key(source)
    shutil.rmtree(folder)  # the worker can only use the files the job carries
    with connect("local", 2, 0.5) as executor:
        assert "0.5 per case" in executor.description
        [run] = list(executor.run([job]))
    assert run.error == "" and run.exit_code in (0, 1, 3), run.error
    assert run.report is not None and run.report["repo"] == str(folder)
    assert [f["category"] for f in run.report["findings"]] == ["loss_args_swapped"]
