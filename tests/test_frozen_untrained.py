"""A trunk the program froze while it still held its initializer's values (nothing
trained or loaded it: round 24's `"freeze_trunk": true` in the settings file, the comment
saying the weights come from a previous run): the model learns on a fixed random part,
and trained, the trunk cuts the program's own held-out error far beyond reseeding ->
confirmed, placed at the settings file's value. Twins: the trunk pretrained in the
script, or loaded from the file the script wrote, then frozen; and a wide random feature
layer on a task it already solves (trained, it barely helps held-out): no confirmed
finding."""

from __future__ import annotations

from conftest import planner_report

SETTINGS = '{\n  "seed": 0,\n  "freeze_trunk": true,\n  "epochs": 10\n}\n'

SCRIPT = """import json

import torch
from torch import nn

cfg = json.load(open("train_config.json"))
torch.manual_seed(cfg["seed"])
x = torch.randn(3000, 10)
y = TARGET + 0.1 * torch.randn(3000)
xtr, ytr, xva, yva = x[600:], y[600:], x[:600], y[:600]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = TRUNK
        self.head = HEAD

    def forward(self, x):
        return self.head(self.trunk(x)).squeeze(-1)


def fit(model, epochs):
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    for epoch in range(epochs):
        model.train()
        for i in torch.randperm(len(xtr)).split(64):
            loss = nn.functional.mse_loss(model(xtr[i]), ytr[i])
            opt.zero_grad()
            loss.backward()
            opt.step()


model = Net()
PRETRAIN
if cfg["freeze_trunk"]:
    # the trunk's weights come from an earlier run
    for p in model.trunk.parameters():
        p.requires_grad_(False)
LOAD
fit(model, cfg["epochs"])
model.eval()
with torch.no_grad():
    mae = (model(xva) - yva).abs().mean().item()
print(f"val_mae={mae:.4f}")
"""

NONLINEAR = "torch.sin(2 * x[:, 0]) + x[:, 1] * x[:, 2] + (x[:, 3] > 0).float() * x[:, 4]"
NARROW = "nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 8), nn.ReLU())"
SMALL_HEAD = "nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))"

PRETRAINED = """fit(model, 10)
model.head = HEAD"""

SAVED = """teacher = Net()
fit(teacher, 10)
torch.save(teacher.trunk.state_dict(), "trunk.pt")"""


def _report(tmp_path, *, target=NONLINEAR, trunk=NARROW, head=SMALL_HEAD, pre="", load=""):
    (tmp_path / "train_config.json").write_text(SETTINGS)
    script = SCRIPT.replace("PRETRAIN", pre).replace("LOAD", load)
    script = script.replace("TARGET", target).replace("TRUNK", trunk).replace("HEAD", head)
    return planner_report(tmp_path, script)


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_a_random_trunk_frozen_by_a_settings_flag_is_confirmed_at_the_flag(tmp_path):
    report = _report(tmp_path)
    found = _confirmed(report)
    assert [f.category for f in found] == ["frozen_parameters"], report.findings
    assert (found[0].file, found[0].line) == ("train_config.json", 3), found[0]


def test_a_trunk_pretrained_in_the_script_then_frozen_is_healthy(tmp_path):
    report = _report(tmp_path, pre=PRETRAINED)
    assert not _confirmed(report), report.findings


def test_a_trunk_loaded_from_the_file_the_script_wrote_is_healthy(tmp_path):
    load = 'model.trunk.load_state_dict(torch.load("trunk.pt"))'
    report = _report(tmp_path, pre=SAVED, load=load)
    assert not _confirmed(report), report.findings


def test_random_features_on_a_task_they_solve_are_healthy(tmp_path):
    report = _report(
        tmp_path,
        target="x[:, 0] + 0.5 * x[:, 1] - x[:, 2]",
        trunk="nn.Sequential(nn.Linear(10, 512), nn.ReLU())",
        head="nn.Linear(512, 1)",
    )
    assert not _confirmed(report), report.findings
