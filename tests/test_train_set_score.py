"""A train-set accuracy printed through the evaluation code (`accuracy(model, Xt, yt)`
on the very tensor the training batches are cut from) is no held-out reading: a model
that memorized misaligned pairs scores 97% there. The tracer notes what training batches
were cut from (or loaded by) and leaves evaluation forwards on that data out of the
program's own evaluation accuracy; what remains (the held-out accuracy at chance)
confirms the misaligned labels. The same script with labels in place is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
rng = np.random.default_rng(0)
X = rng.normal(size=(3000, 12)).astype(np.float32)
y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(np.float32)
LABELS
Xt, yt, Xv, yv = map(torch.from_numpy, (X[:2400], y[:2400], X[2400:], y[2400:]))
def accuracy(model, x, t):
    model.eval()
    with torch.no_grad():
        pred = (model(x).squeeze(1) > 0).float()
    model.train()
    return (pred == t).float().mean().item()
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(12, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(40):
    perm = torch.randperm(2400)
    for i in range(0, 2400, 100):
        b = perm[i:i + 100]
        loss = nn.functional.binary_cross_entropy_with_logits(model(Xt[b]).squeeze(1), yt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch} loss {loss.item():.4f} train_acc {accuracy(model, Xt, yt):.3f}")
print(f"val_acc {accuracy(model, Xv, yv):.3f}")
"""


def _confirmed(report):
    return [(f.category, f.status) for f in report.findings if f.status == "confirmed"]


def test_labels_rolled_against_their_rows_are_misaligned_despite_a_train_set_score(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("LABELS", "y = np.roll(y, 7)  # the label export lags a week")
    )
    assert _confirmed(report) == [("label_misaligned", "confirmed")]
    pairing = next(i for s in report.stages for i in s.checklist if i.id == "pairing")
    assert "best of 1 passes" in pairing.detail  # the four train-set passes left out


def test_labels_in_place_with_a_train_set_score_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LABELS", ""))
    assert _confirmed(report) == []


def test_a_train_set_score_on_the_tensors_a_training_loader_holds_is_left_out(tmp_path):
    """Batches drawn by a DataLoader over TensorDataset(Xt, yt), the train-set score made
    on Xt itself: the loader's dataset holds that tensor, so the score is no held-out
    reading either (round 22's hand-signal repo read its train accuracy as learning)."""
    script = SCRIPT.replace("LABELS", "y = np.roll(y, 7)  # the label export lags a week")
    script = script.replace(
        """    perm = torch.randperm(2400)
    for i in range(0, 2400, 100):
        b = perm[i:i + 100]
        loss = nn.functional.binary_cross_entropy_with_logits(model(Xt[b]).squeeze(1), yt[b])""",
        """    for xb, yb in loader:
        loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)""",
    ).replace(
        "opt = torch.optim.Adam(",
        "loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(Xt, yt), batch_size=100, shuffle=True)\nopt = torch.optim.Adam(",
    )
    assert "for xb, yb in loader" in script
    report = planner_report(tmp_path, script)
    pairing = next(i for s in report.stages for i in s.checklist if i.id == "pairing")
    assert "best of 4 passes" not in pairing.detail and "best of 5 passes" not in pairing.detail
    assert _confirmed(report) == [("label_misaligned", "confirmed")]
