"""Bad input and interruption, as a new user meets them: one line, the documented exit
code, the user's own paths named, nothing left behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "not_learning"
INVESTIGATE = [sys.executable, "-m", "torch_investigate.agent.cli"]
TRAIN = """import torch
from pathlib import Path

rows = Path({path!r}).read_text()
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(20):
    opt.zero_grad()
    loss = (model(torch.ones(4, 2)) - 1).pow(2).mean()
    loss.backward()
    opt.step()
"""


def run(*args, env=None, timeout=240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*INVESTIGATE, *map(str, args)], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, cwd=ROOT,
    )  # fmt: skip


def one_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.startswith("investigate (torch-investigate) ")


def test_a_bad_option_value_is_one_line():
    done = run(EXAMPLE, "--format", "xml")
    assert done.returncode == 2
    assert "'xml' is not one of" in one_line(done.stderr)


def test_top_level_help_names_the_run_options():
    out = run("--help").stdout
    for option in ("--cmd", "--format", "--steps", "--static-only", "--model"):
        assert option in out


def test_a_missing_cmd_script_names_the_users_repo(tmp_path):
    repo = tmp_path / "myrepo"
    shutil.copytree(EXAMPLE, repo)
    done = run(repo, "--cmd", "python nope.py")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert str(repo) in line and "ti-workspace" not in line


def test_a_syntax_error_is_named_with_file_and_line(tmp_path):
    """A module the training command imports does not parse: one line in Python's words,
    exit 3, and no report of eight stages that could not run."""
    repo = tmp_path / "broken"
    shutil.copytree(EXAMPLE, repo)
    source = (repo / "model.py").read_text()
    (repo / "model.py").write_text(source + "\ndef oops(:\n    pass\n")
    line = source.count("\n") + 2
    for extra in ((), ("--cmd", "python train.py")):
        done = run(repo, *extra, "-q")
        assert done.returncode == 3, done.stderr
        assert done.stdout == ""
        assert done.stderr.splitlines() == [
            f"investigate: model.py:{line}: SyntaxError: invalid syntax"
        ]


def test_a_file_that_hides_its_training_loop_in_a_syntax_error_is_one_line(tmp_path):
    """No command can be found in a file that does not parse: Python says why, in one
    line, before anything runs."""
    repo = tmp_path / "unclosed"
    repo.mkdir()
    (repo / "train.py").write_text(
        textwrap.dedent("""\
        import torch
        model = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(torch.ones(1, 2)).sum(
            loss.backward()
            opt.step()
    """)
    )
    done = run(repo)
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "investigate: train.py:5: SyntaxError: '(' was never closed; no training command "
        "could be read from it"
    ]


def test_an_argparse_rejection_shows_its_message(tmp_path):
    repo = tmp_path / "needs_args"
    repo.mkdir()
    (repo / "main.py").write_text(
        "import argparse\nimport torch\n\n"
        "def train(n):\n    m = torch.nn.Linear(1, 1)\n    opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "    for _ in range(n):\n        opt.zero_grad()\n        m(torch.ones(1, 1)).sum().backward()\n"
        "        opt.step()\n\n"
        "if __name__ == '__main__':\n    ap = argparse.ArgumentParser()\n"
        "    ap.add_argument('--dataset', required=True)\n    train(len(ap.parse_args().dataset))\n"
    )
    done = run(repo, "-q")
    assert done.returncode == 3
    assert "required: --dataset" in done.stderr and "--cmd" in done.stderr


def test_a_command_with_no_training_loop_is_inconclusive(tmp_path):
    repo = tmp_path / "no_loop"
    repo.mkdir()
    (repo / "train.py").write_text("import torch\nprint(torch.ones(2) * 2)\n")
    done = run(repo, "--cmd", "python train.py", "-q")
    assert done.returncode == 3
    assert "no backward pass or optimizer step" in done.stderr


def test_a_binary_py_file_is_skipped_with_a_note(tmp_path):
    repo = tmp_path / "with_binary"
    shutil.copytree(EXAMPLE, repo)
    (repo / "weird.py").write_bytes(b"\x00\xff\xfe not python")
    done = run(repo, "-q", "-f", "json")
    assert done.returncode == 0, done.stderr
    assert "skipped weird.py" in done.stdout


def test_data_beside_the_repo_resolves_as_for_the_user(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "rows.csv").write_text("1,2\n")
    repo = tmp_path / "project"
    repo.mkdir()
    (repo / "train.py").write_text(TRAIN.format(path="../data/rows.csv"))
    done = run(repo, "-q", "-f", "json")
    if '"isolation": "bwrap"' not in done.stdout:
        pytest.skip("the surroundings are linked only under bwrap")
    assert done.returncode == 0, done.stderr
    assert "missing_data" not in done.stdout


SLOW_STEPS = """import time
import torch
from torch import nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(32, 4), torch.randn(32, 1)
for step in range(100):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    time.sleep(1)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_one_signal_stops_a_run_at_once_and_leaves_no_temporary_files(tmp_path, sig):
    """As Ctrl-C does: one signal to the whole process group, while a run that would go on
    for 100 s is in flight. It stops within 2 s, says so, and removes every folder."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    repo = tmp_path / "slow"
    repo.mkdir()
    (repo / "train.py").write_text(SLOW_STEPS)
    p = subprocess.Popen(
        [*INVESTIGATE, str(repo), "--timeout", "100"], cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp), "TI_HEARTBEAT_S": "1"},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # a runner started in the background ignores SIGINT, and the child would inherit it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            if list(tmp.glob("ti-sandbox-*/out/*/*progress*")):
                break  # the tracer has started counting steps: the run is in flight
            time.sleep(0.2)
        assert p.poll() is None and list(tmp.glob("ti-sandbox-*")), "the run never started"
        sent = time.monotonic()
        os.killpg(p.pid, sig)
        _, err = p.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 128 + sig, err
    expected = "interrupted" if sig == signal.SIGINT else "terminated; temporary files removed"
    assert err.strip().splitlines()[-1] == f"investigate: {expected}", err
    assert "Traceback" not in err
    assert took < 2.0, f"stopped after {took:.1f} s"
    assert list(tmp.iterdir()) == []


def test_a_run_cut_short_by_the_time_limit_before_two_losses_is_inconclusive(tmp_path):
    """One slow step before --timeout: too little to classify a curve, so no stage can
    pass on it and the answer is not 'no defect found'."""
    repo = tmp_path / "slow_steps"
    repo.mkdir()
    (repo / "train.py").write_text(
        textwrap.dedent("""
        import time
        import torch
        from torch import nn

        model = nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x, y = torch.randn(32, 4), torch.randn(32, 1)
        for step in range(100):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(2)
    """)
    )
    done = subprocess.run(
        [*INVESTIGATE, str(repo), "-f", "json", "-q", "--timeout", "6"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["conclusion"] == "inconclusive", report["conclusion_reason"]
    curve = next(i for i in report["stages"][0]["checklist"] if i["id"] == "loss_curve")
    assert curve["outcome"] == "skipped" and "--timeout" in curve["detail"]
    assert not [f for f in report["findings"] if f["status"] == "confirmed"]
