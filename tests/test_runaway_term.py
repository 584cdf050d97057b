"""A loss term that runs away is placed where its sign is written: a KL computed per sample
in a helper with its sign flipped, averaged and weighted in the loss function, is placed at
the helper's line (the mean and the positive weight decide no sign). The loss reaches
-1e26 and bounces there rather than falling ever faster: far below zero is unbounded too."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

VIB = """
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2048, 10)
y = (x[:, 0] + x[:, 1] > 0).long()

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 8))
        self.head = nn.Linear(4, 2)
    def forward(self, x):
        mu, logvar = self.body(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.head(z), mu, logvar

def kl_term(mu, logvar):
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)

def objective(logits, y, mu, logvar, beta=0.5):
    kl = kl_term(mu, logvar).mean()
    return F.cross_entropy(logits, y) + beta * kl

model = Encoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    i = torch.randint(0, 2048, (128,))
    logits, mu, logvar = model(x[i])
    loss = objective(logits, y[i], mu, logvar)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def test_a_per_sample_term_averaged_in_the_loss_is_placed_where_its_sign_is_written(
    tmp_path: Path,
) -> None:
    report = planner_report(tmp_path, VIB)
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "objective_unbounded" and f.status == "confirmed"
    assert (f.symbol, f.line) == ("kl_term", 20)


def test_far_below_zero_and_still_below_is_a_runaway_however_it_got_there() -> None:
    from torch_investigate.agent.core.curves import falls_without_bound

    bounced = [0.8, -3e3, -2e8, -7e26, -3e26, -1e22] + [-5e20] * 30
    assert falls_without_bound(bounced) is not None
    # a likelihood that settles some nats below zero is bounded
    settles = [3.0, 1.0, -0.5, -1.5, -2.0] + [-2.4] * 30
    assert falls_without_bound(settles) is None
