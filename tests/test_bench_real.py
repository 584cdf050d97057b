"""`investigate bench evals/real --repos DIR`: a tiny real-repo suite made here (a git repo
holding a training script, pinned by its commit; a healthy entry and one seed), scored
like any suite, with missing repos listed and bad input refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import git
import pytest
import yaml

from torch_investigate.evals.real.bench import run_real_bench

TRAIN = '''"""Fit a line with SGD."""
import torch

torch.manual_seed(0)
x = torch.randn(256, 1)
y = 3 * x + 0.5 + 0.05 * torch.randn(256, 1)
model = torch.nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(120):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
'''


def _suite(tmp_path: Path) -> tuple[Path, Path]:
    repos = tmp_path / "repos"
    work = repos / "someone+linefit"
    work.mkdir(parents=True)
    r = git.Repo.init(work)
    (work / "fit.py").write_text(TRAIN)
    r.index.add(["fit.py"])
    actor = git.Actor("a", "a@x")
    commit = r.index.commit("fit a line", author=actor, committer=actor).hexsha
    suite = tmp_path / "real"
    suite.mkdir()
    manifest = {
        "version": 1,
        "repos": [
            {
                "id": "linefit", "source": "someone/linefit", "commit": commit, "folder": "",
                "command": "python fit.py", "healthy_metric": 0.0025, "noise": 0.0001,
                "plain_seconds": 2.0, "style": "a flat script",
                "metric": {"name": "loss", "pattern": "loss ([0-9.]+)", "direction": "lower"},
                "seeds": [{
                    "id": "linefit-missing_zero_grad", "category": "missing_zero_grad", "stage": 6,
                    "truth": {"file": "fit.py", "symbol": "<module>", "line": 10},
                    "edits": [{"file": "fit.py", "line": 10, "find": "    opt.zero_grad()\n", "replace": ""}],
                    "buggy_metric": 1.0, "effect": "degraded", "note": "gradients pile up",
                }],
            },
            {
                "id": "absent", "source": "nobody/absent", "commit": "0" * 40, "folder": "",
                "command": "python x.py", "healthy_metric": 1.0, "noise": 0.0, "plain_seconds": 1.0,
                "style": "missing", "metric": {"name": "m", "pattern": "m ([0-9.]+)", "direction": "lower"},
            },
        ],
    }  # fmt: skip
    (suite / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    return suite, repos


def test_without_repos_or_with_a_bad_folder_it_is_one_line_and_exit_2(tmp_path, capsys):
    suite, repos = _suite(tmp_path)
    assert run_real_bench(suite, None, jobs=1, json_out=None, investigator="x") == 2
    assert "--repos" in capsys.readouterr().err
    assert run_real_bench(suite, tmp_path / "nope", jobs=1, json_out=None, investigator="x") == 2


def test_the_cli_refuses_repos_for_another_suite(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "bench", str(tmp_path), "--repos", "."],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_tiny_real_suite_is_scored_and_missing_repos_are_listed(tmp_path, capsys):
    suite, repos = _suite(tmp_path)
    out = tmp_path / "r.json"
    assert run_real_bench(suite, repos, jobs=2, json_out=out, investigator="x") == 0
    result = json.loads(out.read_text())
    assert result["missing"] == {"absent": f"nobody/absent is not under {repos}"}
    cases = {c["id"]: c for c in result["bench"]["cases"]}
    assert cases["linefit"]["kind"] == "clean" and cases["linefit"]["false_alarms"] == []
    seeded = cases["linefit-missing_zero_grad"]
    assert seeded["detected"] and seeded["top1"], seeded
    assert result["healthy_runs"] == 1 and result["healthy_confirmed"] == 0
    (timing,) = result["timings"]
    assert timing["plain_s"] and timing["investigation_s"] and timing["ratio"]
    err = capsys.readouterr()
    assert "[missing] absent" in err.err and "median" in err.out
    # a second run reuses every cached case
    assert run_real_bench(suite, repos, jobs=1, json_out=out, investigator="x") == 0
    assert capsys.readouterr().err.count("cached") == 2
    # another investigator reruns the investigations, but not the plain run
    assert run_real_bench(suite, repos, jobs=1, json_out=out, investigator="y") == 0
    assert json.loads(out.read_text())["timings"][0]["plain_s"] == timing["plain_s"]
    assert (out.parent / "r.cache" / "plain" / "linefit.json").is_file()


@pytest.mark.slow
def test_patch_scores_the_fix_of_each_entry(tmp_path, capsys):
    """`bench evals/real --patch`: every entry through `investigate fix`; the seed's
    verified patch is applied to a fresh copy whose plain run wins the metric back, and
    the healthy entry gets no patch."""
    suite, repos = _suite(tmp_path)
    out = tmp_path / "p.json"
    assert run_real_bench(suite, repos, jobs=2, json_out=out, investigator="x", patch=True) == 0
    result = json.loads(out.read_text())
    bench = result["bench"]
    assert bench["command"].endswith("--patch") and bench["patches"] is not None
    cases = {c["id"]: c for c in bench["cases"]}
    seeded = cases["linefit-missing_zero_grad"]["patch"]
    assert seeded["verified"] and seeded["matches"] and seeded["metric"] < 0.01, seeded
    assert cases["linefit"]["patch"]["patches"] == 0
    assert bench["patches"]["verified"] == 1 and bench["patches"]["clean_patched"] == 0
    assert bench["patches"]["matches"] == 1
    assert (out.parent / "p.cache" / "real-fix" / "patch-metric").is_dir()
    assert "patches:" in capsys.readouterr().out
