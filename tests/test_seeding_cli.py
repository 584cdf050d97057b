"""`investigate seed PATH --category ID --out DIR` (`seed_repo`): the seeded copy, the
error paths with exit code 2, and the input repo never touched."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from torch_investigate.evals.seeding.cli import seed_repo

REPOS = Path(__file__).resolve().parent.parent / "evals" / "repos"


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(p.relative_to(folder).as_posix().encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    copy = tmp_path / "rings"
    shutil.copytree(REPOS / "rings", copy)
    return copy


def test_seeds_a_copy_and_reports_the_change(repo, tmp_path, capsys):
    before = digest(repo)
    out = tmp_path / "seeded"
    assert seed_repo(repo, "missing_zero_grad", out) == 0
    printed = capsys.readouterr().out
    assert "train.py:44" in printed and "(main)" in printed
    assert "zero_grad" not in (out / "train.py").read_text()
    assert (out / "model.py").read_text() == (repo / "model.py").read_text()
    assert digest(repo) == before


def test_an_existing_empty_out_dir_is_fine(repo, tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    assert seed_repo(repo, "sigmoid_before_bce_logits", out) == 0
    assert "torch.sigmoid(logits)" in (out / "train.py").read_text()


def test_no_applicable_pattern_exits_2_and_writes_nothing(repo, tmp_path, capsys):
    before = digest(repo)
    out = tmp_path / "seeded"
    assert seed_repo(repo, "softmax_before_ce", out) == 2  # rings has no cross-entropy
    err = capsys.readouterr().err
    assert "no applicable pattern for softmax_before_ce" in err and len(err.splitlines()) == 1
    assert not out.exists()
    assert digest(repo) == before


def test_non_empty_out_exits_2(repo, tmp_path, capsys):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert seed_repo(repo, "missing_zero_grad", out) == 2
    assert "exists and is not empty" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_out_inside_the_repo_exits_2(repo, capsys):
    before = digest(repo)
    assert seed_repo(repo, "missing_zero_grad", repo / "seeded") == 2
    assert "inside the input repo" in capsys.readouterr().err
    assert digest(repo) == before


@pytest.mark.parametrize("category", ["no_such_category", "vanishing_or_exploding_gradients"])
def test_unknown_or_unseedable_category_exits_2(repo, tmp_path, category, capsys):
    assert seed_repo(repo, category, tmp_path / "out") == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_missing_repo_exits_2(tmp_path):
    assert seed_repo(tmp_path / "nope", "missing_zero_grad", tmp_path / "out") == 2


def test_the_cli_wires_seed_repo(repo, tmp_path):
    out = tmp_path / "seeded"
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "seed", str(repo), "--category", "step_order",
         "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "defect at train.py:47 (main)" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "seed", str(repo), "--category", "step_order",
         "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "not empty" in bad.stderr
