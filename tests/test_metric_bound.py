"""The program's accuracy against the tracer's count on the same evaluation rows. The
predictions are gathered in one pass over a shuffling evaluation loader and the labels in
a second one: each prediction meets another row's label, and the program counts 42% where
its model classifies 93% of those rows right -> metric_bug at the comparison. Both loaders
are built by one helper on one line (`loader(train), loader(val)`): each is still known
apart. Gathered in one pass, the pairs are healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
def dataset(n):
    x = torch.randn(n, 10)
    y = (x[:, 0] + x[:, 1] > 0).long() + (x[:, 2] > 0.8).long()
    return TensorDataset(x, y)
def loader(ds, train):
    return DataLoader(ds, batch_size=128, shuffle=True)
@torch.no_grad()
def accuracy(model, dl):
    model.eval()
    PREDS
    model.train()
    return (preds == labels).float().mean().item()
train_dl, val_dl = loader(dataset(3000), True), loader(dataset(800), False)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    for xb, yb in train_dl:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f} val_acc {accuracy(model, val_dl):.3f}")
"""

SECOND_PASS = """    preds = torch.cat([model(x).argmax(1) for x, _ in dl])
    labels = torch.cat([y for _, y in dl])"""
ONE_PASS = """    pairs = [(model(x).argmax(1), y) for x, y in dl]
    preds, labels = torch.cat([p for p, _ in pairs]), torch.cat([y for _, y in pairs])"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_labels_gathered_in_a_second_pass_over_a_shuffling_loader_are_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("    PREDS", SECOND_PASS))
    assert _confirmed(report) == [("metric_bug", "accuracy")]


def test_predictions_and_labels_gathered_in_one_pass_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("    PREDS", ONE_PASS))
    assert _confirmed(report) == []
