"""`investigate bisect`: the first commit that stopped learning, found in few runs by a
measured verdict, with crashing commits skipped; the user's repo byte-identical
afterwards (work tree, index, HEAD, refs, stash, no worktree left); bad input exit 2."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import git
import pytest

from torch_investigate.agent.bisect.measure import eval_level, judge, train_level
from torch_investigate.agent.bisect.records import LossLevel, Probe
from torch_investigate.agent.bisect.search import (
    Bisection,
    BisectOptions,
    ProbedCommit,
    bisect,
    pick,
)
from torch_investigate.agent.render import to_json
from torch_investigate.agent.render.bisect_md import to_bisect_json, to_bisect_markdown
from torch_investigate.tools.commits import checkout, history
from torch_investigate.tools.records import Report
from torch_investigate.tools.tracefile.trace import Trace

ROOT = Path(__file__).resolve().parents[1]
ME = git.Actor("Ada", "ada@example.com")

# Full-batch logistic regression with momentum, validated every 10 steps: ~1 s.
# Without zero_grad the gradients accumulate and the momentum overshoots, so the
# settled loss is several times the healthy one.
TRAIN = """import torch


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = (x @ torch.linspace(-1.0, 1.0, 8) > 0).float()
    return x, y


def main():
    torch.manual_seed(0)
    x, y = data(256, 1)
    xv, yv = data(256, 2)
    model = torch.nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    for step in range(1, 121):
        optimizer.zero_grad()
        loss = loss_fn(model(x).squeeze(1), y)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            with torch.no_grad():
                val = loss_fn(model(xv).squeeze(1), yv)
    print(f"METRIC val_loss={val.item():.4f}")


if __name__ == "__main__":
    main()
"""
README = "# toy\n\n```\npython train.py\n```\n"
STEPS = 40


def _commit(r: git.Repo, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (Path(r.working_tree_dir) / name).write_text(text)
    r.index.add(list(files))
    return r.index.commit(message, author=ME, committer=ME).hexsha


def make_repo(root: Path, *, crash: bool = False) -> list[str]:
    """Six commits, the fourth drops zero_grad; with `crash`, a seventh: the fourth
    crashes mid-training, the fifth repairs it, the sixth drops zero_grad."""
    r = git.Repo.init(root)
    t = TRAIN
    shas = [_commit(r, {"train.py": t, "README.md": README}, "initial training script")]
    t = t.replace("def main():", "def main():\n    # full-batch logistic regression")
    shas.append(_commit(r, {"train.py": t}, "explain the model"))
    shas.append(_commit(r, {"README.md": README + "\nSee train.py.\n"}, "docs"))
    if crash:
        broken = t.replace(
            "        loss.backward()\n",
            "        loss.backward()\n        if step == 5:\n            raise RuntimeError('half-done refactor')\n",
        )
        shas.append(_commit(r, {"train.py": broken}, "start a refactor"))
        shas.append(_commit(r, {"train.py": t}, "finish the refactor"))
    t = t.replace("        optimizer.zero_grad()\n", "")
    shas.append(_commit(r, {"train.py": t}, "simplify the loop"))
    if not crash:
        t = t.replace("METRIC val_loss", "METRIC validation_loss")
        shas.append(_commit(r, {"train.py": t}, "rename the metric"))
    shas.append(_commit(r, {"NOTES.md": "notes\n"}, "add notes"))
    return shas


def dirty_up(root: Path) -> None:
    """A stash, a staged file and an unstaged edit: none of them may change."""
    r = git.Repo(root)
    (root / "NOTES.md").write_text("stashed edit\n")
    r.git.stash("push", "-m", "wip")
    (root / "staged.py").write_text("print('staged')\n")
    r.index.add(["staged.py"])
    (root / "README.md").write_text("# toy, edited\n")


def snapshot(root: Path) -> dict[str, str]:
    """Every path under the repo, .git included, with its content (or link target)."""
    import hashlib

    found = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_symlink():
            found[rel] = "link:" + os.readlink(p)
        elif p.is_file():
            found[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            found[rel] = "dir"
    return found


# ---- history and checkouts, without running anything -----------------------------------


def test_history_follows_first_parents_from_a_subfolder(tmp_path: Path) -> None:
    r = git.Repo.init(tmp_path)
    (tmp_path / "proj").mkdir()
    good = _commit(r, {"proj/train.py": "a"}, "good")
    main = r.active_branch
    side = r.create_head("side")
    side.checkout()
    _commit(r, {"proj/side.py": "s"}, "on the side branch")
    main.checkout()
    one = _commit(r, {"proj/train.py": "b"}, "on main")
    r.git.merge("side", "--no-ff", "-m", "merge side")
    merge = r.head.commit.hexsha
    walk = history(tmp_path / "proj", good, "HEAD")
    assert walk.prefix == "proj" and walk.commits == [one, merge]


def test_checkout_leaves_no_worktree_behind_even_when_the_body_fails(tmp_path: Path) -> None:
    repo = tmp_path / "toy"
    shas = make_repo(repo)
    dirty_up(repo)
    before = snapshot(repo)
    walk = history(repo, shas[0], shas[-1])
    with pytest.raises(RuntimeError), checkout(walk.repo, shas[3], "toy") as tree:
        assert "zero_grad" not in (tree / "train.py").read_text()
        assert (tree / "README.md").read_text() == README + "\nSee train.py.\n"
        raise RuntimeError("a probe failed")
    assert not tree.exists() and snapshot(repo) == before


# ---- the search and the verdict, without running anything ----------------------------


def test_pick_halves_and_steps_around_skipped_commits() -> None:
    assert pick(-1, 4, set()) == 2
    assert pick(2, 4, set()) == 3
    assert pick(3, 4, set()) is None
    assert pick(-1, 5, {2}) == 3  # the middle cannot run: its neighbour
    assert pick(-1, 5, {2, 3}) == 1
    assert pick(1, 3, {2}) is None  # only skipped commits left


def _linear_repo(root: Path, n: int) -> list[str]:
    r = git.Repo.init(root)
    return [_commit(r, {"train.py": f"# {i}\n"}, f"commit {i}") for i in range(n + 1)]


def _fake_runs(monkeypatch, verdicts: dict[int, str]) -> list[int]:
    """Replace the run of each commit with a made-up curve: position -> good|bad|crash."""
    ran: list[int] = []

    def fake(self, sha: str, position: int) -> ProbedCommit:
        ran.append(position)
        kind = verdicts.get(position, "good")
        curve = [1.0 - 0.009 * i for i in range(100)] if kind == "good" else [1.0] * 100
        probe = _probe(_trace(curve)).model_copy(
            update={
                "sha": sha,
                "position": position,
                "status": "reference" if position == 0 else "skipped",
            }
        )
        if kind == "crash":
            probe = probe.model_copy(update={"train": None, "reason": "crashed"})
        return ProbedCommit(probe, None, ExitStack())

    monkeypatch.setattr(Bisection, "_checkout", fake)
    return ran


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_every_first_bad_position_is_found_in_about_log2_runs(tmp_path, monkeypatch, n) -> None:
    shas = _linear_repo(tmp_path, n)
    options = BisectOptions(cmd="python train.py", investigate=False)
    for first in range(1, n + 1):
        ran = _fake_runs(monkeypatch, {p: "bad" for p in range(first, n + 1)})
        result = bisect(tmp_path, shas[0], shas[-1], options)
        assert result.first_bad == shas[first] and result.runs == len(ran)
        # the bad commit itself is run only when it is the answer (then its run is also
        # the investigation's baseline)
        assert result.runs <= math.ceil(math.log2(n)) + 1 + (first == n)


def test_no_regression_and_skips_that_leave_several_candidates(tmp_path, monkeypatch) -> None:
    shas = _linear_repo(tmp_path, 5)
    options = BisectOptions(cmd="python train.py", investigate=False)
    _fake_runs(monkeypatch, {})
    result = bisect(tmp_path, shas[0], shas[-1], options)
    assert result.conclusion == "no_regression" and result.first_bad is None
    assert result.probes[-1].sha == shas[-1] and result.probes[-1].status == "good"

    _fake_runs(monkeypatch, {2: "crash", 3: "bad", 4: "bad", 5: "bad"})
    result = bisect(tmp_path, shas[0], shas[-1], options)
    assert result.conclusion == "ambiguous" and result.candidates == [shas[2], shas[3]]

    ran = _fake_runs(monkeypatch, {0: "crash"})
    result = bisect(tmp_path, shas[0], shas[-1], options)
    assert result.conclusion == "not_judged" and ran == [0]


def _trace(step_losses: list[float], evals: list[tuple[int, float]] = ()) -> Trace:
    calls = [
        {
            "fn": "binary_cross_entropy_with_logits",
            "phase": "eval",
            "grad_enabled": False,
            "input": {"shape": [4, 1], "dtype": "float32"},
            "target": {"shape": [4, 1], "dtype": "float32"},
            "step": step,
            "value": value,
        }
        for step, value in evals
    ]
    return Trace.model_validate(
        {
            "format_version": 1,
            "status": "completed",
            "counts": {"step": len(step_losses), "backward": len(step_losses)},
            "step_losses": step_losses,
            "loss_calls": calls,
        }
    )


def _probe(trace: Trace, steps: int = 100) -> Probe:
    train = train_level(trace, steps)
    return Probe(sha="0" * 40, subject="", position=1, status="skipped", reason="", train=train,
                 eval=eval_level(trace, train.first if train else None))  # fmt: skip


def test_margin_is_three_spreads_or_a_relative_floor() -> None:
    falling = [1.0 - 0.009 * i for i in range(100)]  # settles near 0.15, smooth
    good = _probe(_trace(falling))
    status, margin, _ = judge(good, good)
    assert status == "good" and margin is not None
    # smooth curve: the floor (5% of the 0.85 it fell) decides, not the tiny spread
    assert margin.margin == pytest.approx(0.05 * (falling[0] - margin.good), rel=1e-6)
    worse = _probe(_trace([v + 1.5 * margin.margin for v in falling]))
    assert judge(good, worse)[0] == "bad"
    within = _probe(_trace([v + 0.5 * margin.margin for v in falling]))
    assert judge(good, within)[0] == "good"


def test_noisy_good_run_widens_the_margin() -> None:
    noisy = [0.5 + (0.2 if i % 2 else -0.2) for i in range(100)]  # settles at 0.5 +- 0.2
    good = _probe(_trace(noisy))
    _, margin, _ = judge(good, good)
    assert margin is not None and margin.margin == pytest.approx(3 * margin.spread)
    assert margin.margin > 0.05 * 0.5
    slightly = _probe(_trace([v + 0.5 * margin.margin for v in noisy]))
    assert judge(good, slightly)[0] == "good"


def test_non_finite_loss_is_bad_and_eval_loss_is_preferred() -> None:
    good = _probe(_trace([1.0 - 0.009 * i for i in range(100)], [(50, 0.3), (90, 0.2)]))
    nan_tail = _probe(_trace([0.5] * 80 + [math.nan] * 20))
    assert nan_tail.train is not None and nan_tail.train.settled is None
    assert judge(good, nan_tail)[0] == "bad"
    # same training curve, worse held-out loss at the same step: the evaluation decides
    overfit = _probe(_trace([1.0 - 0.009 * i for i in range(100)], [(50, 0.3), (90, 0.6)]))
    status, margin, reason = judge(good, overfit)
    assert status == "bad" and margin is not None and margin.metric == "eval_loss"
    assert "evaluation loss at step 90" in reason


def test_level_covers_only_the_step_budget() -> None:
    level = train_level(_trace([1.0] * 40 + [9.0] * 60), steps=40)
    assert isinstance(level, LossLevel) and level.settled == 1.0 and level.steps == 40


# ---- end to end ------------------------------------------------------------------------


def test_finds_the_commit_that_dropped_zero_grad_and_investigates_it(tmp_path: Path) -> None:
    repo = tmp_path / "toy"
    shas = make_repo(repo)
    assert len(shas) == 6
    dirty_up(repo)
    before = snapshot(repo)
    seen: list[Probe] = []
    result = bisect(repo, shas[0], "HEAD", BisectOptions(steps=STEPS, timeout_s=120),
                    on_probe=seen.append)  # fmt: skip

    assert result.first_bad == shas[3], to_bisect_markdown(result)
    n = result.commits
    assert n == 5 and result.runs == len(seen) == len(result.probes)
    assert result.runs <= math.ceil(math.log2(n)) + 1
    assert len({p.sha for p in result.probes}) == result.runs  # no commit run twice
    assert result.probes[0].sha == shas[0] and result.probes[0].status == "reference"
    verdicts = {p.sha: p.status for p in result.probes[1:]}
    assert verdicts[shas[3]] == "bad" and all(
        status == "good" for sha, status in verdicts.items() if sha != shas[3]
    )
    bad = next(p for p in result.probes if p.sha == shas[3])
    assert bad.margin is not None and bad.settled > bad.margin.good + bad.margin.margin
    assert result.first_bad_commit is not None
    assert result.first_bad_commit.subject == "simplify the loop"
    assert [(f.path, f.deletions) for f in result.first_bad_commit.files] == [("train.py", 1)]

    report = result.investigation
    assert report is not None and report.git is not None and report.git.head == shas[3]
    assert any(
        f.category == "missing_zero_grad" and f.status == "confirmed" for f in report.findings
    )
    data = json.loads(to_bisect_json(result))
    assert data["first_bad"] == shas[3]
    assert data["investigation"] == json.loads(to_json(report))  # as `investigate -f json`
    assert Report.model_validate(data["investigation"]).findings == report.findings
    text = to_bisect_markdown(result)
    assert text.index("simplify the loop") < text.index("# torch-investigate: ")
    assert "| BAD |" in text

    assert snapshot(repo) == before
    assert len(git.Repo(repo).git.worktree("list").splitlines()) == 1


def test_a_crashing_commit_is_skipped_and_the_answer_still_found(tmp_path: Path) -> None:
    repo = tmp_path / "toy"
    shas = make_repo(repo, crash=True)
    before = snapshot(repo)
    options = BisectOptions(steps=STEPS, timeout_s=120, investigate=False)
    result = bisect(repo, shas[0], shas[-1], options)

    assert result.first_bad == shas[5], to_bisect_markdown(result)
    crashed = next(p for p in result.probes if p.sha == shas[3])
    assert crashed.status == "skipped" and "RuntimeError" in crashed.reason
    assert "half-done refactor" in crashed.reason
    assert result.runs <= math.ceil(math.log2(result.commits)) + 1
    assert "skipped" in to_bisect_markdown(result)
    assert snapshot(repo) == before


# ---- the command line ------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TI_DEBUG"}
    return subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", "bisect", *map(str, args)],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT,
    )  # fmt: skip


def _one_line_error(p: subprocess.CompletedProcess, code: int, text: str) -> None:
    assert p.returncode == code, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0] and "Traceback" not in p.stderr, p.stderr


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "train.py").write_text("print(1)\n")
    _one_line_error(cli(plain, "--good", "HEAD~1", "--bad", "HEAD"), 2, "not in a git repository")
    _one_line_error(cli(tmp_path / "missing", "--good", "a", "--bad", "b"), 2, "is not a folder")

    repo = tmp_path / "toy"
    shas = make_repo(repo)
    before = snapshot(repo)
    _one_line_error(cli(repo, "--good", "nope", "--bad", "HEAD"), 2, "unknown revision for --good")
    _one_line_error(cli(repo, "--good", shas[0], "--bad", "v9"), 2, "unknown revision for --bad")
    _one_line_error(cli(repo, "--good", "HEAD", "--bad", shas[0]), 2, "not an ancestor")
    _one_line_error(cli(repo, "--good", "HEAD", "--bad", shas[-1]), 2, "the same commit")
    _one_line_error(
        cli(repo, "--good", shas[0], "--bad", "HEAD", "--cmd", "make train"), 2, "--cmd"
    )
    assert snapshot(repo) == before


def test_no_commit_judged_is_exit_3_with_the_report(tmp_path: Path) -> None:
    repo = tmp_path / "toy"
    shas = make_repo(repo)
    before = snapshot(repo)
    args = ["--good", shas[0], "--bad", "HEAD", "--cmd", "python missing.py", "-f", "json"]
    p = cli(repo, *args)
    assert p.returncode == 3, p.stderr
    data = json.loads(p.stdout)
    assert data["conclusion"] == "not_judged" and data["first_bad"] is None
    assert data["runs"] == 1 and data["probes"][0]["status"] == "skipped"
    assert "missing.py" in data["probes"][0]["reason"]
    progress = [line for line in p.stderr.splitlines() if line.startswith("bisect: ")]
    assert len(progress) == 1
    quiet = cli(repo, *args, "--quiet")
    assert quiet.returncode == 3 and not any(
        line.startswith("bisect: ") for line in quiet.stderr.splitlines()
    )
    assert snapshot(repo) == before
