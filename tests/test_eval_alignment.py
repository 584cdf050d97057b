"""Training and evaluation inputs that differ like a transform applied to one side: the
moments alone cannot tell that from data that drifted (a later time window), so the run
moves the evaluation inputs to the training moments and reads the program's own
evaluation loss. A transform is undone and the loss falls; a drift loses what the shift
told and it does not."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
t = torch.arange(0, 1200, dtype=torch.float32)
series = 0.01 * t + torch.sin(t / 7) + 0.1 * torch.randn(1200)
windows = torch.stack([series[i : i + 9] for i in range(1190)])
x_all, y_all = windows[:, :8], windows[:, 8:]
x_train, y_train = x_all[:900], y_all[:900]
x_val, y_val = x_all[900:], y_all[900:]
mu, sd = x_train.mean(), x_train.std()
x_train, y_train = (x_train - mu) / sd, (y_train - mu) / sd
x_val, y_val = VAL_INPUTS, (y_val - mu) / sd
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(12):
    model.train()
    for i in torch.randperm(900).split(32):
        loss = F.mse_loss(model(x_train[i]), y_train[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = F.mse_loss(model(x_val), y_val).item()
    print(f"epoch {epoch} val_mse={val:.4f}")
"""


def report_of(tmp_path: Path, val_inputs: str):
    return planner_report(tmp_path, SCRIPT.replace("VAL_INPUTS", val_inputs))


def item(report, item_id: str):
    data = next(s for s in report.stages if s.stage == 2)
    return next(i for i in data.checklist if i.id == item_id)


def test_a_later_window_of_a_trending_series_is_drift_not_a_mismatch(tmp_path):
    """Validation comes later in a rising series: its inputs sit higher, as its targets
    do, and moving them to the training moments makes the evaluation loss worse."""
    report = report_of(tmp_path, "(x_val - mu) / sd")
    assert not [f for f in report.findings if f.category == "preprocessing_mismatch"]
    inputs = item(report, "train_eval_inputs")
    assert inputs.outcome == "passed" and "not a transform" in inputs.detail, inputs.detail


def test_evaluation_inputs_left_unscaled_are_a_mismatch_the_alignment_undoes(tmp_path):
    report = report_of(tmp_path, "x_val")
    found = [f for f in report.findings if f.category == "preprocessing_mismatch"]
    assert found and found[0].status == "confirmed", report.findings
    moved = [o for o in found[0].evidence if o.source == "intervention"]
    assert moved and moved[0].values["eval_aligned"] < moved[0].values["eval_as_written"]


def test_the_aligned_run_is_judged_at_the_last_evaluation_of_the_run_as_written():
    # pytorch/examples' MNIST RNN with the test loader's Normalize removed: at the first
    # evaluation (step 94) even the healthy model scores near chance (its BatchNorm's
    # running statistics still settle), so aligned inputs cannot show anything there; at
    # the last one (step 188) they recover the loss. The aligned run must reach it.
    from types import SimpleNamespace

    from torch_investigate.agent.checks.input_moments import aligned_evaluation

    asked = []

    def get(interventions, steps=None):
        asked.append(steps)
        curve = [(94, 2443.0)] + ([(188, 430.0)] if steps is not None and steps >= 188 else [])
        return SimpleNamespace(trace=SimpleNamespace(eval_curve=lambda: curve))

    base = SimpleNamespace(
        eval_losses=[1], n_steps=200, eval_curve=lambda: [(94, 2102.0), (188, 4124.0)]
    )
    session = SimpleNamespace(
        baseline=lambda: SimpleNamespace(trace=base), runner=SimpleNamespace(get=get)
    )
    aligned = aligned_evaluation(session)
    assert asked == [200]
    assert aligned is not None and aligned.helps, aligned
    assert "430 instead of 4124" in aligned.text.replace(".0", "")
