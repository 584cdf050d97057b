"""`model.eval` written without its call in the evaluation function: the per-row
evaluation forwards run in train mode (dropout on, BatchNorm on batches of one row).
That is train_mode_in_eval, placed at the statement that does nothing; the batch of one
at the BatchNorm is the evaluation's, not a training batch (no batchnorm_small_batch).
With `model.eval()` it is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(1200, 4, 8)
y = x[:, 0].mean(1) * 2 - x[:, 1, :4].mean(1) + 0.1 * torch.randn(1200)
model = nn.Sequential(
    nn.Conv1d(4, 16, 3), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Flatten(), nn.Linear(96, 1)
)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.no_grad()
def predict_one(row):
    return model(row.unsqueeze(0))[0, 0].item()


def evaluate(rows, targets):
    SWITCH
    preds = torch.tensor([predict_one(r) for r in rows])
    return F.mse_loss(preds, targets).item()


for epoch in range(8):
    model.train()
    perm = torch.randperm(1000)
    for i in range(0, 1000, 32):
        idx = perm[i : i + 32]
        loss = F.mse_loss(model(x[idx]).squeeze(1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} val_mse {evaluate(x[1000:], y[1000:]):.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_an_eval_attribute_without_its_call_is_train_mode_in_eval(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SWITCH", "model.eval"))
    assert _confirmed(report) == [("train_mode_in_eval", "evaluate", 20)]


def test_an_eval_call_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SWITCH", "model.eval()"))
    assert _confirmed(report) == []
