"""An evaluation DataLoader that shuffles, its predictions scored against the labels its
dataset holds in their own order: each prediction meets another row's label and the
accuracy reads near chance for a model that works. The same loader scoring the labels it
yielded, a loader that does not shuffle, and predictions put back in dataset order by the
indices the loader yields are all healthy."""

from __future__ import annotations

import torch
from conftest import planner_report
from torch.utils.data import DataLoader, TensorDataset

from torch_investigate.tools.trace import eval_order
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.recorder import Recorder

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
centres = torch.randn(4, 6) * 2.5
y = torch.randint(0, 4, (3600,))
x = centres[y] + torch.randn(3600, 6)
train_ds = TensorDataset(x[:3000], y[:3000])
val_ds = TensorDataset(x[3000:], y[3000:], torch.arange(600))
train_dl = DataLoader(train_ds, batch_size=50, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=100, shuffle=SHUFFLE)

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    model.train()
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
preds, seen, rows = [], [], []
with torch.no_grad():
    for xb, yb, ib in val_dl:
        preds.append(model(xb).argmax(dim=1))
        seen.append(yb)
        rows.append(ib)
pred = torch.cat(preds)
LABELS
print(f"val_acc={(pred == labels).float().mean().item():.4f}")
"""

DATASET_LABELS = "labels = val_ds.tensors[1]"
YIELDED_LABELS = "labels = torch.cat(seen)"
# predictions moved back to dataset order by the row ids the loader yielded beside them
PUT_BACK = "pred = pred[torch.cat(rows).argsort()]\nlabels = val_ds.tensors[1]"


def _script(shuffle: bool, labels: str) -> str:
    return SCRIPT.replace("SHUFFLE", str(shuffle)).replace("LABELS", labels)


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_a_shuffled_evaluation_scored_in_dataset_order_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, _script(True, DATASET_LABELS))
    found = _confirmed(report)
    assert [f.category for f in found] == ["metric_bug"], report.findings
    assert (found[0].file, found[0].line) == ("train.py", 13)


def test_a_shuffled_evaluation_scored_on_its_own_labels_is_healthy(tmp_path):
    report = planner_report(tmp_path, _script(True, YIELDED_LABELS))
    assert not _confirmed(report), report.findings


def test_an_ordered_evaluation_scored_in_dataset_order_is_healthy(tmp_path):
    report = planner_report(tmp_path, _script(False, DATASET_LABELS))
    assert not _confirmed(report), report.findings


def test_predictions_put_back_in_dataset_order_are_healthy(tmp_path):
    report = planner_report(tmp_path, _script(True, PUT_BACK))
    assert not _confirmed(report), report.findings


def _pass(rec: Recorder, loader: DataLoader) -> tuple[torch.Tensor, torch.Tensor]:
    """One evaluation pass as the loader hook records it: (predictions, labels yielded)."""
    rec.loaders["eval.py:3"] = {"role": None}
    rec.current_loader = "eval.py:3"
    eval_order.started(rec, loader, "eval.py:3")
    preds, labels = [], []
    for xb, yb in loader:
        eval_order.loaded(rec, "eval.py:3", [xb, yb])
        preds.append(xb.squeeze(1).long())
        labels.append(yb)
    pred = torch.cat(preds)
    pred._ti_pred = True
    rec.last_output_eval = True
    return pred, torch.cat(labels)


def test_the_tracer_tells_yielded_labels_from_reordered_ones():
    y = torch.arange(40) % 4
    ds = TensorDataset(y.float().unsqueeze(1), y)
    rec = Recorder(Config())
    pred, yielded = _pass(rec, DataLoader(ds, batch_size=8, shuffle=True))
    eval_order.after_op(rec, "eq", (pred, yielded))
    assert eval_order.serialize(rec)[0]["yielded"] == 1
    eval_order.after_op(rec, "eq", (pred, y))  # the dataset's order
    assert eval_order.serialize(rec)[0]["reordered"] == 1
    rec = Recorder(Config())
    pred, _ = _pass(rec, DataLoader(ds, batch_size=8, shuffle=False))
    eval_order.after_op(rec, "eq", (pred, y))
    assert eval_order.serialize(rec) == []  # a loader in order keeps no record
