"""An evaluation that computes no loss, only an accuracy (`(pred == y).sum()`), and that
also scores the training set through the same function: the training rows it scores are
not held-out inputs (they would hide a transform of the held-out ones), and the accuracy
the program's own comparisons count is what moving the evaluation inputs to the training
moments is judged by."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
centers = torch.randn(5, 6) * 12 - 60
labels = torch.randint(0, 5, (2000,))
x = centers[labels] + 6 * torch.randn(2000, 6)
x_tr, y_tr, x_va, y_va = x[:1600], labels[:1600], x[1600:], labels[1600:]
mu, sd = x_tr.mean(0), x_tr.std(0)
lo, hi = x_tr.min(0).values, x_tr.max(0).values
x_tr = (x_tr - mu) / sd
x_va = VAL_INPUTS


def accuracy(model, xs, ys):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(xs), 100):
            correct += (model(xs[i : i + 100]).argmax(1) == ys[i : i + 100]).sum().item()
    model.train()
    return correct / len(xs)


model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    for i in torch.randperm(1600).split(64):
        loss = nn.functional.cross_entropy(model(x_tr[i]), y_tr[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train_acc={accuracy(model, x_tr, y_tr):.3f} val_acc={accuracy(model, x_va, y_va):.3f}")
"""


def report_of(tmp_path: Path, val_inputs: str):
    return planner_report(tmp_path, SCRIPT.replace("VAL_INPUTS", val_inputs))


def test_held_out_inputs_scaled_another_way_are_a_mismatch_the_accuracy_shows(tmp_path):
    report = report_of(tmp_path, "(x_va - lo) / (hi - lo)")
    found = [f for f in report.findings if f.category == "preprocessing_mismatch"]
    assert found and found[0].status == "confirmed", report.findings
    # either side of the mismatch: the training transform or the held-out one
    assert found[0].location.symbol == "<module>" and found[0].location.line in (11, 12)
    moved = [o for o in found[0].evidence if o.source == "intervention"]
    assert "error rate" in moved[0].values["measure"]
    assert moved[0].values["eval_aligned"] < 0.5 * moved[0].values["eval_as_written"]


def test_held_out_inputs_scaled_like_training_are_healthy(tmp_path):
    report = report_of(tmp_path, "(x_va - mu) / sd")
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
    # the validation batches scored right after the training set, by the same function at
    # the same step, are held out: no suspicion that there is no held-out data
    assert not [f for f in report.findings if f.category == "split_leakage"], report.findings


REGRESSION = """import torch
from torch import nn

torch.manual_seed(0)
raw = torch.rand(3000, 4) * torch.tensor([1.0, 2.0, 3.0, 4.0]) + 0.5
y = torch.log(raw[:, :1]) * 2 + raw[:, 1:2] - 0.5 * raw[:, 2:3] + 0.05 * torch.randn(3000, 1)


def features(r):
    return torch.cat([torch.log(r[:, :1]), r[:, 1:]], 1)


x_tr = features(raw[:2400])
mu, sd = x_tr.mean(0), x_tr.std(0)
x_tr = (x_tr - mu) / sd
x_va = (EVAL_FEATURES - mu) / sd
y_tr, y_va = y[:2400], y[2400:]
model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(15):
    for i in torch.randperm(2400).split(100):
        loss = nn.functional.mse_loss(model(x_tr[i]), y_tr[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        mae = (model(x_va) - y_va).abs().mean().item()
    print(f"epoch {epoch} val_mae={mae:.4f}")
"""


def test_one_feature_computed_another_way_for_evaluation_is_a_mismatch_its_error_shows(tmp_path):
    script = REGRESSION.replace("EVAL_FEATURES", "torch.cat([raw[2400:, :1], raw[2400:, 1:]], 1)")
    report = planner_report(tmp_path, script)
    found = [f for f in report.findings if f.category == "preprocessing_mismatch"]
    assert found and found[0].status == "confirmed", report.findings
    moved = [o for o in found[0].evidence if o.source == "intervention"]
    assert "absolute evaluation error" in moved[0].values["measure"]


def test_every_feature_computed_alike_is_healthy(tmp_path):
    report = planner_report(tmp_path, REGRESSION.replace("EVAL_FEATURES", "features(raw[2400:])"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
