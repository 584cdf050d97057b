"""What `investigate PATH` prints on stderr while it works, with stderr piped (a CI log):
stage lines, each run's start and end, heartbeats with the tracer's step count, one line
each, cut between words; `--quiet` prints nothing; stdout holds only the report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from torch_investigate.agent.render._interventions import change_name

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 72

# each step sleeps, so a run spends a few seconds training: long enough for a heartbeat
# with steps in it; the softmax before cross_entropy is confirmed by one intervention
TRAIN = """
import time

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(256, 4)
y = (x[:, 0] > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(40):
    idx = torch.randint(0, 256, (32,))
    opt.zero_grad()
    loss = F.cross_entropy(F.softmax(model(x[idx]), dim=1), y[idx])
    loss.backward()
    opt.step()
    time.sleep(0.08)
print(f"METRIC loss={loss.item():.3f}")
"""


def start(repo: Path, *extra: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "TI_DEBUG"}
    env.update(TI_HEARTBEAT_S="1.5", COLUMNS=str(WIDTH))
    argv = [sys.executable, "-m", "torch_investigate.agent.cli", str(repo), "--steps", "40"]
    return subprocess.Popen(
        [*argv, "-f", "json", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_piped_progress_has_stages_runs_and_heartbeats_and_quiet_has_none(tmp_path):
    repo = tmp_path / "slow"
    repo.mkdir()
    (repo / "train.py").write_text(TRAIN)
    shown, quiet = start(repo), start(repo, "--quiet")  # side by side: half the wait
    out, err = shown.communicate(timeout=240)
    quiet_out, quiet_err = quiet.communicate(timeout=240)
    assert shown.returncode == 0, err
    assert quiet.returncode == 0 and quiet_err == "", quiet_err
    report = json.loads(out)  # stdout is the report and nothing else
    assert json.loads(quiet_out)["findings"] == report["findings"]
    lines = err.splitlines()

    for n in range(1, 8):
        assert any(re.fullmatch(rf"stage {n} \(.+\): checking", line) for line in lines), n
    assert "  as written: started (40 steps)" in lines
    assert any(
        re.fullmatch(r"  as written: (completed|stopped), 40 steps, [\d.]+ s", x) for x in lines
    )
    stripped = f"  {change_name('strip_prob')}"
    assert f"{stripped}: started (40 steps)" in lines
    assert any(line.startswith(f"{stripped}: stopped, 40 steps") for line in lines)
    beats = [re.fullmatch(r"  as written: (\d+)/40 steps, \d+ s", line) for line in lines]
    assert any(b and int(b[1]) > 0 for b in beats), err  # the tracer's count, while it ran

    for line in lines:  # one line each, within the width
        assert len(line) <= WIDTH, line
    for stage in report["stages"]:
        head = f"stage {stage['stage']} ({stage['title']}): {stage['verdict'].replace('_', ' ')}"
        said = next(line for line in lines if line.startswith(head) and "checking" not in line)
        if stage["verdict"] != "not_examined":  # the reason, or its first words up to a cut
            reason = said.removeprefix(f"{head} - ")
            full = " ".join(stage["reason"].split())
            assert reason == full or full.startswith(reason.removesuffix("…")), said
