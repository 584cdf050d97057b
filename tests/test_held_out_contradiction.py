"""A fix whose training loss ends a little higher is not contradicted when the program's
own held-out reading says it helps: an embedding table whose optimizer is never zeroed
(round 18's car-sharing pickups) accumulates its gradients, takes ever larger steps and
overfits the training loss lower, while its held-out error is far worse. The fix, run as
long as the run as written, is judged at the program's last evaluation."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(8)
n, k = 20000, 200
pop = rng.gamma(1.5, 1.0, k)
lot = rng.integers(0, k, n)
hour = rng.integers(0, 24, n)
feats = np.stack([np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24)], 1)
y = rng.poisson(8.0 * pop[lot] * (0.5 + np.exp(-((hour - 8) ** 2) / 4)))
lot, x, y = torch.from_numpy(lot), torch.from_numpy(feats.astype(np.float32)), torch.from_numpy(y.astype(np.float32))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Embedding(k, 8)
        self.head = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, i, v):
        return self.head(torch.cat([self.table(i), v], 1)).squeeze(1)


model = Model()
opt_a = torch.optim.Adam(model.head.parameters(), lr=2e-3)
opt_b = torch.optim.SGD(model.table.parameters(), lr=0.3)
loss_fn = nn.PoissonNLLLoss(log_input=True)
held = torch.arange(4000)
fit = torch.arange(4000, n)
for epoch in range(8):
    model.train()
    for b in fit[torch.randperm(len(fit))].split(128):
        opt_a.zero_grad()
        RESET
        loss = loss_fn(model(lot[b], x[b]), y[b])
        loss.backward()
        opt_a.step()
        opt_b.step()
    model.eval()
    with torch.no_grad():
        mae = (model(lot[held], x[held]).exp() - y[held]).abs().mean().item()
    print(f"epoch {epoch} val_mae={mae:.3f}")
"""


def test_a_fix_that_helps_held_out_data_is_not_contradicted_by_the_training_loss(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("RESET", "pass"))
    (found,) = [f for f in report.findings if f.category == "missing_zero_grad"]
    assert found.status == "confirmed", found.evidence
    held = [o for o in found.evidence if "held-out data" in o.text]
    assert held and held[0].values["eval_with_fix"] < 0.75 * held[0].values["eval_as_written"]


@pytest.mark.slow
def test_both_optimizers_zeroed_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("RESET", "opt_b.zero_grad()"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
