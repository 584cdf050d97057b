"""Per-position class targets (a 1-D segmentation) whose loss ignores index 0 (practice
set 01's case17: the settings' ignore_index names the seabed class, the most common one):
the model keeps an output channel for it that never learns, and trained with that class
scored, the program's own mean IoU over every class improves far beyond reseeding ->
confirmed loss_mask_error. Twin: 0 is a void label on the few positions where segments
meet, the model keeps a channel for it, and the program scores only the real classes on
the real positions: scoring the void class changes nothing that counts -> no confirmed
finding."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)


def make(n):
    x = torch.zeros(n, 1, 64)
    y = torch.zeros(n, 64, dtype=torch.long)
    for i in range(n):
        cuts = sorted(torch.randint(4, 60, (3,)).tolist())
        bounds = [0, *cuts, 64]
        for k in range(len(bounds) - 1):
            c = CLASSES[torch.randint(0, len(CLASSES), (1,)).item()]
            y[i, bounds[k]:bounds[k + 1]] = c
            x[i, 0, bounds[k]:bounds[k + 1]] = float(c) + 0.6 * torch.randn(bounds[k + 1] - bounds[k])
        VOID
    return x, y


def miou(pred, target):
    ious = []
    for c in SCORED:
        keep = target != IGNORE if IGNORE not in SCORED else torch.ones_like(target, dtype=torch.bool)
        p, t = (pred == c) & keep, (target == c) & keep
        union = (p | t).sum().item()
        if union:
            ious.append((p & t).sum().item() / union)
    return sum(ious) / len(ious)


xtr, ytr = make(600)
xva, yva = make(200)
model = nn.Sequential(nn.Conv1d(1, 16, 5, padding=2), nn.ReLU(), nn.Conv1d(16, 3, 5, padding=2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss(ignore_index=IGNORE)
for epoch in range(6):
    perm = torch.randperm(600)
    for i in range(0, 600, 32):
        j = perm[i:i + 32]
        loss = criterion(model(xtr[j]), ytr[j])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        score = miou(model(xva).argmax(1), yva)
    print(f"epoch {epoch} loss {loss.item():.4f} miou {score:.4f}")
"""

# 0 the most common class (two of the four draws); every class scored
SEABED = {"CLASSES": "[0, 0, 1, 2]", "SCORED": "[0, 1, 2]", "VOID": "pass"}
# 0 marks the positions where two segments meet; the real classes 1 and 2 scored
VOIDED = {
    "CLASSES": "[1, 2]",
    "SCORED": "[1, 2]",
    "VOID": "for b in cuts:\n            y[i, b - 1:b + 1] = 0",
}


def _script(parts: dict) -> str:
    text = SCRIPT.replace("IGNORE", "0")
    for key, value in parts.items():
        text = text.replace(key, value)
    return text


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_a_common_class_the_loss_ignores_is_a_mask_error(tmp_path):
    report = planner_report(tmp_path, _script(SEABED))
    found = _confirmed(report)
    assert [f.category for f in found] == ["loss_mask_error"], report.findings
    assert any("scored in training" in e.text for e in found[0].evidence), found[0].evidence


def test_a_void_label_the_loss_ignores_where_segments_meet_is_healthy(tmp_path):
    report = planner_report(tmp_path, _script(VOIDED))
    assert not _confirmed(report), report.findings
