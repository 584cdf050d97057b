"""A project that trains in one script and evaluates in another (`python train.py &&
python evaluate.py`, the evaluation reloading the checkpoint and the scaler training
saved): the chain's evaluation step runs after training in the same traced run, so a
defect that lives only in it (the scaler's statistics read back swapped) is observed
there; the same project with the statistics read back right has no confirmed finding.
The tracer runs a chain's next command only once the one before it ended with code 0."""

from __future__ import annotations

import json
from pathlib import Path

from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.session import Options, Session
from torch_investigate.tools.sandbox import Sandbox

COMMON = """import json
import numpy as np
import torch
from torch import nn

def rows(n, seed):
    r = np.random.default_rng(seed)
    x = r.normal(size=(n, 5)) * np.array([3.0, 50.0, 0.2, 8.0, 1.0]) + np.array([10, 400, 1, -20, 3])
    w = np.array([0.4, 0.02, 3.0, -0.1, 0.5])
    y = (x - np.array([10, 400, 1, -20, 3])) @ w + 0.1 * r.normal(size=n)
    return x.astype(np.float32), y.astype(np.float32)

class Scaler:
    def __init__(self, mean, std):
        self.mean, self.std = np.asarray(mean, np.float32), np.asarray(std, np.float32)
    @classmethod
    def fit(cls, x):
        return cls(x.mean(0), x.std(0))
    def __call__(self, x):
        return (x - self.mean) / self.std
    def save(self, path):
        json.dump({"mean": self.mean.tolist(), "std": self.std.tolist()}, open(path, "w"))
    @classmethod
    def load(cls, path):
        d = json.load(open(path))
        return cls(LOADED)

def net():
    return nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
"""

TRAIN = """import torch
from common import Scaler, net, rows
torch.manual_seed(0)
x, y = rows(2000, 1)
scaler = Scaler.fit(x)
x, y = torch.from_numpy(scaler(x)), torch.from_numpy(y)
model = net()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    perm = torch.randperm(len(x))
    for i in range(0, len(x), 64):
        idx = perm[i:i + 64]
        loss = ((model(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
torch.save(model.state_dict(), "model.pt")
scaler.save("scaler.json")
"""

EVALUATE = """import torch
from common import Scaler, net, rows
x, y = rows(500, 2)
scaler = Scaler.load("scaler.json")
model = net()
model.load_state_dict(torch.load("model.pt"))
model.eval()
with torch.no_grad():
    pred = model(torch.from_numpy(scaler(x))).squeeze(-1)
    mse = ((pred - torch.from_numpy(y)) ** 2).mean().item()
print(f"test_mse={mse:.4f}")
"""


def _project(root: Path, loaded: str) -> Path:
    root.mkdir()
    (root / "common.py").write_text(COMMON.replace("LOADED", loaded))
    (root / "train.py").write_text(TRAIN)
    (root / "evaluate.py").write_text(EVALUATE)
    (root / "README.md").write_text("```bash\npython train.py && python evaluate.py\n```\n")
    return root


def _report(repo: Path):
    with Session(repo, Options()) as session:
        investigate(session, Planner())
        return session.report()


def test_a_scaler_read_back_swapped_in_the_evaluation_step_is_found(tmp_path: Path) -> None:
    report = _report(_project(tmp_path / "swapped", 'd["std"], d["mean"]'))
    assert report.command is not None and report.command.then == [["evaluate.py"]]
    root = next(f for f in report.findings if f.id == report.root_cause)
    assert root.status == "confirmed" and root.category == "preprocessing_mismatch"
    assert root.file == "common.py"


def test_a_scaler_read_back_right_in_the_evaluation_step_is_healthy(tmp_path: Path) -> None:
    report = _report(_project(tmp_path / "right", 'd["mean"], d["std"]'))
    assert report.command is not None and report.command.then == [["evaluate.py"]]
    assert [f.category for f in report.findings if f.status == "confirmed"] == []


def test_the_next_command_of_a_chain_runs_only_after_the_one_before_it_succeeded(
    tmp_path: Path,
) -> None:
    (tmp_path / "first.py").write_text(
        "import sys, torch\nopen('made.txt', 'w').write('1')\n"
        "torch.nn.Linear(2, 1)(torch.ones(1, 2))\nsys.exit(int(sys.argv[1]))\n"
    )
    (tmp_path / "second.py").write_text(
        "import random, torch\nprint('second', open('made.txt').read(), random.random())\n"
        "with torch.no_grad():\n    torch.nn.Linear(2, 1)(torch.ones(1, 2))\n"
    )
    with Sandbox(tmp_path) as sandbox:
        ok = sandbox.run(["first.py", "0"], trace_config={"then": [["second.py"]]}, label="ok")
        failed = sandbox.run(["first.py", "3"], trace_config={"then": [["second.py"]]}, label="no")
    assert ok.exit_code == 0 and "second 1" in ok.stdout
    assert ok.trace is not None and ok.trace.counts["forward"] == 2
    assert failed.exit_code == 3 and "second" not in failed.stdout
    # the second command starts from the seeded streams a fresh process would have
    again = [line for line in ok.stdout.splitlines() if line.startswith("second")]
    assert json.loads(again[0].split()[-1]) < 1


LONG_TRAIN = """import torch
from common import Scaler, net, rows
torch.manual_seed(0)
x, y = rows(2000, 1)
scaler = Scaler.fit(x)
x, y = torch.from_numpy(scaler(x)), torch.from_numpy(y)
xv, yv = rows(400, 3)
xv, yv = torch.from_numpy(scaler(xv)), torch.from_numpy(yv)
model = net()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(3200):  # a loop of steps, no epochs: nothing to fast-forward
    idx = torch.randint(0, len(x), (64,))
    loss = ((model(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 400 == 0:
        with torch.no_grad():
            val = ((model(xv).squeeze(-1) - yv) ** 2).mean().item()
        print(f"step {step} loss {loss.item():.4f} val {val:.4f}")
torch.save(model.state_dict(), "model.pt")
scaler.save("scaler.json")
"""


def test_training_past_its_step_budget_still_reaches_the_evaluation_step(tmp_path: Path) -> None:
    """A loop of 3200 steps outlasts the traced run's hard budget: the training goes on
    untraced to save the checkpoint, the evaluation script is traced, and its inputs,
    unlike those of the validation the training script scored, are the odd ones."""
    repo = _project(tmp_path / "long", 'd["std"], d["mean"]')
    (repo / "train.py").write_text(LONG_TRAIN)
    report = _report(repo)
    root = next(f for f in report.findings if f.id == report.root_cause)
    assert (root.status, root.category, root.file) == (
        "confirmed",
        "preprocessing_mismatch",
        "common.py",
    ), report.findings


VALIDATING_TRAIN = (
    TRAIN.replace(
        '    print(f"epoch {epoch} loss {loss.item():.4f}")',
        '    print(f"epoch {epoch} loss {loss.item():.4f} val {validate(model):.4f}")',
    )
    .replace(
        "torch.manual_seed(0)\n",
        "torch.manual_seed(0)\nxv, yv = rows(300, 3)\n\n\n"
        "def validate(model):\n    model.eval()\n    with torch.no_grad():\n"
        "        v = ((model(torch.from_numpy(scaler(xv))).squeeze(-1) - torch.from_numpy(yv)) ** 2).mean()\n"
        "    return v.item()\n\n\n",
    )
    .replace(
        "    perm = torch.randperm(len(x))\n",
        "    model.train()\n    perm = torch.randperm(len(x))\n",
    )
)


def test_an_evaluation_script_left_in_train_mode_is_placed_in_that_script(tmp_path: Path) -> None:
    """The training script switches its own model to eval mode to validate; the evaluation
    script builds a fresh model with dropout and never does. The switches the training
    process made belong to it, not to the next command: the finding is in evaluate.py."""
    repo = _project(tmp_path / "dropout", 'd["mean"], d["std"]')
    common = (repo / "common.py").read_text()
    (repo / "common.py").write_text(
        common.replace(
            "nn.Linear(5, 32), nn.ReLU(),", "nn.Linear(5, 32), nn.ReLU(), nn.Dropout(0.5),"
        )
    )
    (repo / "train.py").write_text(VALIDATING_TRAIN)
    (repo / "evaluate.py").write_text(EVALUATE.replace("model.eval()\n", ""))
    report = _report(repo)
    root = next(f for f in report.findings if f.id == report.root_cause)
    assert (root.status, root.category, root.file) == (
        "confirmed",
        "train_mode_in_eval",
        "evaluate.py",
    ), report.findings
