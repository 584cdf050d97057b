"""A fare model whose features keep the tip and the total (fare + tip + tolls): a linear
combination of some feature columns reproduces the fare to float rounding in every training
batch, the other columns left out, so the fare is read off the features, not predicted.
Without them the fare is predicted from distance and time (healthy). A toy task whose
target is the sum of every input column is the task itself, not a leak."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
rng = np.random.default_rng(0)
n = 4000
distance = rng.gamma(2.0, 2.0, n)
minutes = distance * 3 + rng.normal(0, 4, n).clip(-5, None) + 5
zone = rng.integers(0, 20, n)
fare = 2.5 + 1.6 * distance + 0.3 * minutes + rng.normal(0, 1.5, n)
tip = fare * rng.uniform(0, 0.25, n)
tolls = rng.choice([0.0, 5.5], n, p=[0.8, 0.2])
total = fare + tip + tolls
columns = {"distance": distance, "minutes": minutes, "tolls": tolls, "tip": tip, "total": total}
KEEP
X = np.stack([columns[c] for c in keep], 1).astype(np.float32)
X = (X - X.mean(0)) / X.std(0)
X, zone, y = torch.tensor(X), torch.tensor(zone), torch.tensor(fare, dtype=torch.float32)
class Fare(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.zone = nn.Embedding(20, 4)
        self.mlp = nn.Sequential(nn.Linear(k + 4, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, z, x):
        return self.mlp(torch.cat([self.zone(z), x], 1)).squeeze(-1)
model = Fare(X.shape[1])
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
tr, va = slice(0, 3200), slice(3200, n)
for epoch in range(10):
    perm = torch.randperm(3200)
    for i in range(0, 3200, 64):
        idx = perm[i:i + 64]
        loss = nn.functional.mse_loss(model(zone[idx], X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        mae = (model(zone[va], X[va]) - y[va]).abs().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_mae {mae:.3f}")
"""

ADDER = """
import torch
from torch import nn
torch.manual_seed(0)
X = torch.randn(3000, 4)
y = X.sum(1)                      # the network learns to add its inputs
model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 64):
        idx = perm[i:i + 64]
        loss = nn.functional.mse_loss(model(X[idx]).squeeze(-1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(report) -> list[str]:
    return [f.category for f in report.findings if f.status == "confirmed"]


def test_the_total_among_the_features_gives_the_fare_away(tmp_path):
    keep = 'keep = ["distance", "minutes", "tolls", "tip", "total"]'
    report = planner_report(tmp_path, SCRIPT.replace("KEEP", keep))
    assert _confirmed(report) == ["split_leakage"]
    leakage = next(i for s in report.stages for i in s.checklist if i.id == "leakage")
    assert "linear combination" in leakage.detail


def test_features_known_before_the_fare_are_healthy(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("KEEP", 'keep = ["distance", "minutes", "tolls"]')
    )
    assert _confirmed(report) == []


def test_a_network_that_adds_its_inputs_is_no_leak(tmp_path):
    report = planner_report(tmp_path, ADDER)
    assert "split_leakage" not in _confirmed(report)


WINDOWS = """import numpy as np
import torch
from torch import nn
rng = np.random.default_rng(1)
walk = np.cumsum(rng.normal(0, 1, 5000)) * 0.1 + np.sin(np.arange(5000) / 9)
W = 30
starts = np.arange(len(walk) - W - 5)
X = np.stack([walk[s:s + W] for s in starts]).astype(np.float32)
y = np.array([TARGET for s in starts], dtype=np.float32)
y = y - X[:, -1]                      # the change from the last reading
X = (X - X.mean(0)) / X.std(0)
y = (y - y.mean()) / y.std()
X, y = torch.from_numpy(X), torch.from_numpy(y)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(W, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
cut = 4000
for epoch in range(4):
    perm = torch.randperm(cut)
    for i in range(0, cut, 16):
        b = perm[i:i + 16]
        loss = nn.functional.mse_loss(model(X[b]).squeeze(1), y[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(X[cut:]).squeeze(1), y[cut:]).item()
    print(f"epoch {epoch} loss {loss.item():.4f} val_mse {val:.4f}")
"""


def test_a_target_inside_its_window_is_found_over_batches_pooled_to_enough_rows(tmp_path):
    # 30 columns, batches of 16 rows: no batch alone can show an exact fit; pooled, the
    # target (a reading inside the window minus the last one) is two columns' difference
    report = planner_report(tmp_path, WINDOWS.replace("TARGET", "walk[s + 12]"))
    assert [f.category for f in report.findings if f.status == "confirmed"] == ["split_leakage"]


def test_a_target_beyond_its_window_is_healthy(tmp_path):
    report = planner_report(tmp_path, WINDOWS.replace("TARGET", "walk[s + W + 4]"))
    assert not [f for f in report.findings if f.status == "confirmed"]
