"""A loss masked to the elements whose input was filled in (round 22's bookshop promo
tagger: the gap mask, True where a day is missing, used as the loss weight). Every kept
element's input is the fill vector (zeros and the missing flag), the dropped elements
carry data: loss_mask_error, placed where the mask is passed. The observed-days mask is
healthy, and so is an imputer trained on the days it hides: its target is the series
itself, which the visible days show in the input (as noisy readings)."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
shops, days = 240, 40
level = rng.normal(0, 1, (shops, 1))
promo = (rng.random((shops, days)) < 0.2).astype(np.float32)
sales = (level + 0.3 * np.sin(np.arange(days) / 3.0) + 1.2 * promo
         + 0.2 * rng.normal(size=(shops, days))).astype(np.float32)
gap = rng.random((shops, days)) < 0.25


def fill(values, missing):
    x = np.where(missing, 0.0, values)
    return np.stack([x, missing.astype(np.float32)], -1).astype(np.float32)


def masked_loss(pred, target, weight, fn):
    per_day = fn(pred, target, reduction="none")
    return (per_day * weight).sum() / weight.sum().clamp(min=1.0)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(2, 16, 3, padding=1), nn.ReLU(), nn.Conv1d(16, 1, 1))

    def forward(self, x):                      # (batch, days, 2) -> (batch, days)
        return self.net(x.transpose(1, 2)).squeeze(1)


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
TASK
for epoch in range(6):
    perm = torch.randperm(200)
    for s in range(0, 200, 20):
        idx = perm[s:s + 20]
        loss = masked_loss(model(x[idx]), y[idx], w[idx], FN)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err = masked_loss(model(x[200:]), y[200:], w[200:], FN)
    print(f"epoch {epoch} loss {loss.item():.4f} val {err.item():.4f}")
"""

TAGGER = """x = torch.from_numpy(fill(sales, gap))
y = torch.from_numpy(promo)
w = torch.from_numpy(WEIGHT.astype(np.float32))"""

# the imputer hides a fresh 25% of the days and predicts them from the rest, which it
# sees as noisy readings
IMPUTER = """hidden = rng.random((shops, days)) < 0.25
noisy = (sales + 0.2 * rng.normal(size=sales.shape)).astype(np.float32)
x = torch.from_numpy(fill(noisy, hidden))
y = torch.from_numpy(sales)
w = torch.from_numpy(hidden.astype(np.float32))"""

BCE = "nn.functional.binary_cross_entropy_with_logits"


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def _tagger(weight: str) -> str:
    return SCRIPT.replace("TASK", TAGGER.replace("WEIGHT", weight)).replace("FN", BCE)


def test_the_gap_mask_as_the_loss_weight_is_a_loss_mask_error(tmp_path):
    report = planner_report(tmp_path, _tagger("gap"))
    assert _confirmed(report) == [("loss_mask_error", "<module>")]


def test_the_observed_days_as_the_loss_weight_are_healthy(tmp_path):
    report = planner_report(tmp_path, _tagger("(~gap)"))
    assert _confirmed(report) == []


def test_an_imputer_trained_on_the_days_it_hides_is_healthy(tmp_path):
    script = SCRIPT.replace("TASK", IMPUTER).replace("FN", "nn.functional.mse_loss")
    report = planner_report(tmp_path, script)
    assert _confirmed(report) == []
