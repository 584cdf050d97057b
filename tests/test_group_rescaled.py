"""Inputs scaled per group (a night, a recording) with the group's own median and
spread for training, and by the pooled statistics for evaluation: every group is centred,
not every row, so the per-feature moments of the two phases agree while the evaluation
rows keep the groups' offsets and gains. The run decides: the evaluation rows given the
training rows' mean and spread score the program's own held-out metric (a numpy F1
printed inside an f-string, beside a train-set F1 every epoch) beyond what its seeds move
it by. Per-group scaling on both sides, pooled scaling on both sides, and held-out nights
that genuinely differ but are scaled like the training ones are healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

WIN = 64


def nights(rng, n, gains, offsets, first=0):
    X, y, night = [], [], []
    t = np.arange(WIN) / 4
    for k in range(n):
        gain, offset = np.exp(rng.normal(0, gains)), rng.normal(0, offsets)
        for _ in range(60):
            event = rng.random() < 0.3
            env = np.ones(WIN)
            if event:
                s = rng.integers(0, WIN // 2)
                env[s:s + WIN // 2] = 0.2
            sig = env * np.sin(2 * np.pi * 0.25 * t + rng.uniform(0, 6.3))
            X.append((gain * (sig + rng.normal(0, 0.1, WIN)) + offset).astype(np.float32))
            y.append(int(event))
            night.append(first + k)
    return np.stack(X), np.array(y), np.array(night)


def scale(X, night=None, center=0.0, spread=1.0):
    if night is None:
        return (X - center) / spread
    out = np.empty_like(X)
    for n in np.unique(night):
        m = night == n
        q75, q25 = np.percentile(X[m], [75, 25])
        out[m] = (X[m] - np.median(X[m])) / (q75 - q25 + 1e-6)
    return out


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum()
    fp = ((pred == 1) & (y == 0)).sum()
    fn = ((pred == 0) & (y == 1)).sum()
    return float(2 * tp / max(2 * tp + fp + fn, 1))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
                                  nn.Conv1d(8, 8, 9, padding=4), nn.ReLU())
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        h = self.conv(x.unsqueeze(1))
        return self.head(torch.cat([h.mean(-1), h.amax(-1) - h.amin(-1)], 1)).squeeze(-1)


def predict(model, X):
    model.eval()
    with torch.no_grad():
        return (model(torch.from_numpy(X)) > 0).long().numpy()


torch.manual_seed(0)
rng = np.random.default_rng(0)
Xtr, ytr, ntr = nights(rng, 20, 0.7, 2.0)
Xva, yva, nva = nights(rng, 6, VAL_GAINS, VAL_OFFSETS, first=20)
center = float(np.median(Xtr))
q75, q25 = np.percentile(Xtr, [75, 25])
spread = float(q75 - q25)
Xtr_s = scale(Xtr, TRAIN_NIGHTS, center, spread).astype(np.float32)
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
xt, yt = torch.from_numpy(Xtr_s), torch.from_numpy(ytr).float()
for epoch in range(10):
    model.train()
    perm = rng.permutation(len(xt))
    for i in range(0, len(perm), 64):
        b = perm[i:i + 64]
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(xt[b]), yt[b])
        loss.backward()
        opt.step()
    train_f1 = f1_score(predict(model, Xtr_s), ytr)
    print(f"epoch {epoch} loss={loss.item():.4f} train_f1={train_f1:.3f}")
Xva_s = scale(Xva, VAL_NIGHTS, center, spread).astype(np.float32)
pred = predict(model, Xva_s)
print(f"val_f1={f1_score(pred, yva):.4f}")
"""

EVAL_TRANSFORM_LINE = SCRIPT.splitlines().index(
    "Xva_s = scale(Xva, VAL_NIGHTS, center, spread).astype(np.float32)"
) + 1

VARIANTS = {
    # training per night, evaluation by the pooled statistics: the defect
    "mismatch": dict(TRAIN_NIGHTS="ntr", VAL_NIGHTS="None", VAL_GAINS="0.7", VAL_OFFSETS="2.0"),
    "per_night": dict(TRAIN_NIGHTS="ntr", VAL_NIGHTS="nva", VAL_GAINS="0.7", VAL_OFFSETS="2.0"),
    "pooled": dict(TRAIN_NIGHTS="None", VAL_NIGHTS="None", VAL_GAINS="0.7", VAL_OFFSETS="2.0"),
    # held-out nights from another cohort (wider gains and offsets), scaled like training
    "other_nights": dict(TRAIN_NIGHTS="ntr", VAL_NIGHTS="nva", VAL_GAINS="1.2", VAL_OFFSETS="4.0"),
    "other_nights_pooled": dict(
        TRAIN_NIGHTS="None", VAL_NIGHTS="None", VAL_GAINS="1.2", VAL_OFFSETS="4.0"
    ),
}


def script(variant: str) -> str:
    text = SCRIPT
    for key, value in VARIANTS[variant].items():
        text = text.replace(key, value)
    return text


def _confirmed(tmp_path, variant: str) -> list:
    report = planner_report(tmp_path, script(variant))
    return [f for f in report.findings if f.status == "confirmed"]


def test_evaluation_scaled_by_pooled_statistics_after_per_night_training_is_a_mismatch(tmp_path):
    found = _confirmed(tmp_path, "mismatch")
    assert [(f.category, f.file, f.line) for f in found] == [
        ("preprocessing_mismatch", "train.py", EVAL_TRANSFORM_LINE)
    ], found


def test_per_night_scaling_on_both_sides_is_healthy(tmp_path):
    assert not _confirmed(tmp_path, "per_night")


def test_pooled_scaling_on_both_sides_is_healthy(tmp_path):
    assert not _confirmed(tmp_path, "pooled")


def test_held_out_nights_that_differ_but_are_scaled_alike_are_healthy(tmp_path):
    assert not _confirmed(tmp_path, "other_nights")


def test_held_out_nights_that_differ_under_pooled_scaling_are_healthy(tmp_path):
    assert not _confirmed(tmp_path, "other_nights_pooled")
