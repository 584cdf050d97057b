"""Labels kept with a unit axis (a dataset returning `torch.tensor([y])`: [N, 1] after
batching) that the loss squeezes but the accuracy does not (round 25's joystick jitter):
`argmax [N] == targets [N, 1]` broadcasts to [N, N] and scores every pair, about 1/C
whatever the model. The accuracy is computed after the `no_grad` block closed, so grad
mode alone calls it training code; outside a forward with nothing on a gradient path it
scores the evaluation forward's output. Two runtime observations show it: the comparison's
outer-product shape in evaluation, and the helper scoring a perfect prediction (a one-hot
of the [N, 1] labels) near 1/C instead of 1 (the only one a metric in numpy leaves).
Healthy twins: the labels flattened first, a top-k accuracy ([N, k] against [N, 1] grows
nothing), a confusion matrix built by broadcasting against the classes, and a recall@k
that compares every item's label with every other's."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
C = 6
CENTRES = torch.randn(C, 10) * 2.0


class Points(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, C, (n,), generator=g)
        self.x = CENTRES[self.y] + torch.randn(n, 10, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], torch.tensor([int(self.y[i])])


def metric(logits, targets):
METRIC


def run_eval(model, loader):
    model.eval()
    outs, tgts = [], []
    with torch.no_grad():
        for x, y in loader:
            outs.append(model(x))
            tgts.append(y)
    return metric(torch.cat(outs), torch.cat(tgts))


train = DataLoader(Points(1500, 1), batch_size=50, shuffle=True)
val = DataLoader(Points(600, 2), batch_size=200)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, C))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    model.train()
    for x, y in train:
        loss = F.cross_entropy(model(x), y.squeeze(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f} val_accuracy {run_eval(model, val):.4f}")
"""

UNFLATTENED = "    return (logits.argmax(dim=1) == targets).float().mean().item()"
IN_NUMPY = (
    "    pred = logits.argmax(dim=1).numpy()\n    return float((pred == targets.numpy()).mean())"
)
FLATTENED = """    y = targets.view(-1)
    top1 = (logits.argmax(dim=1) == y).float().mean().item()
    top3 = (logits.topk(3, dim=1).indices == targets).any(dim=1).float().mean().item()
    classes = torch.arange(C)
    hot_p = logits.argmax(dim=1)[:, None] == classes[None, :]
    hot_t = y[:, None] == classes[None, :]
    confusion = hot_t.float().T @ hot_p.float()
    assert abs(confusion.diag().sum().item() / len(y) - top1) < 1e-6
    return top1 if top3 >= top1 else 0.0"""
RETRIEVAL = """    y = targets.view(-1)
    emb = F.normalize(logits, dim=1)
    sim = emb @ emb.T
    sim.fill_diagonal_(-2.0)
    same = y[:, None] == y[None, :]
    nearest = sim.topk(5, dim=1).indices
    recall = (y[nearest] == y[:, None]).any(dim=1).float().mean().item()
    positives = (same.float().sum(1) - 1).clamp(min=1)
    share = ((same & (sim > 0.9)).float().sum(1) / positives).mean().item()
    return recall if share >= 0 else 0.0"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_an_accuracy_over_unit_axis_labels_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("METRIC", UNFLATTENED))
    assert _confirmed(report) == [("metric_bug", "metric")], report.findings


@pytest.mark.slow
def test_the_same_accuracy_in_numpy_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("METRIC", IN_NUMPY))
    assert _confirmed(report) == [("metric_bug", "metric")], report.findings


def test_flattened_labels_top_k_and_a_broadcast_confusion_matrix_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("METRIC", FLATTENED))
    assert _confirmed(report) == [], report.findings


@pytest.mark.slow
def test_a_pairwise_recall_at_k_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("METRIC", RETRIEVAL))
    assert _confirmed(report) == [], report.findings
