"""A replay loss rebuilt from numbers (`torch.tensor(total / n)` of chunk losses taken out
with .item()), added to the training loss from the second task on, after the run
fast-forwards: it counts in the loss and carries no gradient. A sum that starts from
`torch.tensor(0.0)` is a constant start, no term."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.CrossEntropyLoss()
x = torch.randn(2048, 4)
y = x.argmax(1)
memory = x[:256], y[:256]


def replay_loss():
    REPLAY


for step in range(500):
    i = torch.randint(256, 2048, (64,))
    loss = crit(model(x[i]), y[i])
    if step >= 350:
        loss = loss + replay_loss()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss={loss.item():.4f}")
"""

NUMBERS = """total = 0.0
    for k in range(0, 256, 64):
        total += crit(model(memory[0][k : k + 64]), memory[1][k : k + 64]).item() * 64
    return torch.tensor(total / 256)"""

TENSORS = """total = torch.tensor(0.0)
    for k in range(0, 256, 64):
        total = total + crit(model(memory[0][k : k + 64]), memory[1][k : k + 64]) * 64
    return total / 256"""


def test_a_replay_loss_rebuilt_from_numbers_is_a_cut_term(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("REPLAY", NUMBERS))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["detached_graph"], report.findings
    assert found[0].location.line == 17


def test_a_replay_loss_summed_from_a_zero_tensor_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("REPLAY", TENSORS))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
