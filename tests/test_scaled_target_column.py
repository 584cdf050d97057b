"""A forecasting target read at horizon 0 (round 24's lagoon salinity: the horizon key
misread, falling back to 0) is the window's last value; inputs and target are each
standardized with their own statistics, so no input column equals the target, but one is
the target scaled and shifted to float rounding in every batch -> split_leakage. The
next day's value tracks the last one closely and is no exact affine copy: healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
s = np.zeros(4000, np.float32)
for i in range(1, 4000):
    s[i] = 0.95 * s[i - 1] + rng.normal(0, 0.4)
rain = rng.gamma(0.5, 2.0, 4000).astype(np.float32)
H, L = HORIZON, 12
starts = np.arange(0, 4000 - L - 1)
X = np.stack([np.stack([s[a:a + L], rain[a:a + L]], -1) for a in starts])
y = s[starts + L - 1 + H]
X = (X - X.reshape(-1, 2).mean(0)) / X.reshape(-1, 2).std(0)
y = (y - y.mean()) / y.std()
Xt, yt = torch.tensor(X[:3000]), torch.tensor(y[:3000])
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(2 * L, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(3):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = nn.functional.mse_loss(model(Xt[idx]).squeeze(1), yt[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(tmp_path, horizon):
    report = planner_report(tmp_path, SCRIPT.replace("HORIZON", horizon))
    return [f.category for f in report.findings if f.status == "confirmed"]


def test_a_target_that_is_an_input_scaled_otherwise_is_leakage(tmp_path):
    assert _confirmed(tmp_path, "0") == ["split_leakage"]


def test_the_next_value_is_no_scaled_copy(tmp_path):
    assert _confirmed(tmp_path, "1") == []
