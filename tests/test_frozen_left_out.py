"""Parameters a line of the program froze and left out of the optimizer (built from the
trainable rest). Inverted (the interaction layers and readout frozen, the embedding
trained: round 22's freeze_by_prefix), the run fails: trained, they make the loss fall
far further and cut the program's own held-out error. A backbone pretrained in the
script and then frozen, and a fixed random feature layer beside a trained readout, are
deliberate."""

from __future__ import annotations

from conftest import planner_report

FREEZE = """import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(2000, 10)
y = torch.sin(x[:, 0] * 2) + x[:, 1] * x[:, 2] + 0.1 * torch.randn(2000)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(10, 32)
        self.body = nn.Sequential(nn.ReLU(), nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.readout = nn.Linear(64, 1)

    def forward(self, x):
        return self.readout(self.body(self.embed(x))).squeeze(-1)


def freeze_by_prefix(model, prefixes):
    for name, p in model.named_parameters():
        p.requires_grad_(CONDITION)


model = Net()
PRETRAIN
freeze_by_prefix(model, ("embed",))
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
for epoch in range(8):
    model.train()
    for i in torch.randperm(1600).split(50):
        loss = nn.functional.mse_loss(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        mae = (model(x[1600:]) - y[1600:]).abs().mean().item()
    print(f"epoch {epoch} val_mae {mae:.4f}")
print(f"val_mae={mae:.4f}")
"""

PRETRAINED = """pre = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    for i in torch.randperm(1600).split(50):
        loss = nn.functional.mse_loss(model(x[i]), y[i])
        pre.zero_grad()
        loss.backward()
        pre.step()
model.readout = nn.Linear(64, 1)"""


def _report(tmp_path, condition: str, pretrain: str = ""):
    return planner_report(
        tmp_path, FREEZE.replace("CONDITION", condition).replace("PRETRAIN", pretrain)
    )


def test_a_freeze_applied_to_the_part_meant_to_learn_is_confirmed(tmp_path):
    report = _report(tmp_path, "name.startswith(prefixes)")
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["frozen_parameters"], report.findings
    assert found[0].symbol == "freeze_by_prefix", found[0]


def test_the_freeze_as_meant_is_healthy(tmp_path):
    report = _report(tmp_path, "not name.startswith(prefixes)")
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_a_backbone_pretrained_in_the_script_and_frozen_is_healthy(tmp_path):
    """Everything but the new readout frozen after pretraining: deliberate."""
    report = _report(tmp_path, "name.startswith('readout')", PRETRAINED)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
