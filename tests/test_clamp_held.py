"""A loss held only by a clamp: the objective has no minimum, and a clamp on the gradient's
path (a log-rate kept within a range) is all that stops it, so the loss settles far below
zero instead of running away. Rerun with the clamps lifted, it falls without bound ->
objective_unbounded, confirmed. Its twin: a Gaussian NLL whose clamped log-variance sits
at its floor on precise data settles below zero too, but lifted, the clamp lets it settle
a little lower and no further -> no defect."""

from __future__ import annotations

from conftest import planner_report

# an exponential waiting-time log-likelihood minimized as it is
MINIMIZED = """import torch
from torch import nn
torch.manual_seed(0)
# waiting times between arrivals, exponential with a rate that depends on 6 covariates
x = torch.randn(4000, 6)
rate = torch.exp(0.5 * x[:, 0] - 0.3 * x[:, 1])
t = torch.distributions.Exponential(rate).sample()
class RateModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
    def forward(self, x):
        return self.net(x).squeeze(-1).clamp(min=-8.0, max=8.0)  # log-rate, kept finite
def exp_loglik(log_rate, t):
    return log_rate - torch.exp(log_rate) * t
model = RateModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
xtr, ttr, xva, tva = x[:3000], t[:3000], x[3000:], t[3000:]
for epoch in range(10):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = exp_loglik(model(xtr[idx]), ttr[idx]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = -exp_loglik(model(xva), tva).mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_nll {val:.3f}")
"""

# a heteroscedastic regression on a precise sensor: the log-variance meets its clamp
PRECISE = """import torch
from torch import nn
torch.manual_seed(0)
# a precise sensor: y = 0.8 x0 - 0.5 x1 with noise 0.003; the model predicts a mean and a
# log-variance, the log-variance clamped to keep the first steps stable
x = torch.randn(4000, 4)
y = 0.8 * x[:, 0] - 0.5 * x[:, 1] + 0.003 * torch.randn(4000)
class Heteroscedastic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 2))
    def forward(self, x):
        out = self.body(x)
        return out[:, 0], out[:, 1].clamp(-8.0, 4.0)
def gaussian_nll(mu, logvar, y):
    return 0.5 * (logvar + (y - mu) ** 2 / torch.exp(logvar))
model = Heteroscedastic()
opt = torch.optim.Adam(model.parameters(), lr=3e-2)
xtr, ytr, xva, yva = x[:3000], y[:3000], x[3000:], y[3000:]
for epoch in range(30):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = gaussian_nll(*model(xtr[idx]), ytr[idx]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        mu, _ = model(xva)
        mse = ((mu - yva) ** 2).mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_mse {mse:.4f}")
"""


def test_a_loss_held_only_by_a_clamp_is_an_unbounded_objective(tmp_path):
    report = planner_report(tmp_path, MINIMIZED)
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["objective_unbounded"]
    assert "clamps on the gradient's path lifted" in " ".join(o.text for o in found[0].evidence)


def test_a_gaussian_nll_at_its_variance_clamp_is_no_defect(tmp_path):
    report = planner_report(tmp_path, PRECISE)
    assert not [f for f in report.findings if f.status == "confirmed"]
    assert report.conclusion == "no_defect_found"
