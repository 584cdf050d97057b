"""Inputs standardized per group (per utterance) in training and with global statistics in
evaluation: every training batch's mean sits far tighter around zero than independent rows
allow, evaluation batch means scatter at least as widely as they do. The pooled moments of
both phases agree, so only the per-batch scatter shows it."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset
torch.manual_seed(0)
D, C = 12, 4
centers = torch.randn(C, D) * 0.6

def utterance(g):
    offset = torch.randn(D, generator=g) * 1.5          # a speaker/channel offset
    labels = torch.randint(0, C, (40,), generator=g)
    return centers[labels] + offset + 0.3 * torch.randn(40, D, generator=g), labels

g = torch.Generator().manual_seed(1)
train_utts = [utterance(g) for _ in range(300)]
val_utts = [utterance(g) for _ in range(80)]
frames = torch.cat([u[0] for u in train_utts])
MEAN, STD = frames.mean(0), frames.std(0)

class Utterances(Dataset):
    def __init__(self, utts, per_utterance):
        self.utts, self.per_utterance = utts, per_utterance
    def __len__(self):
        return len(self.utts)
    def __getitem__(self, i):
        x, y = self.utts[i]
        if self.per_utterance:
            x = (x - x.mean(0)) / (x.std(0) + 1e-5)
        else:
            x = (x - MEAN) / STD
        return x, y

def collate(items):
    return torch.cat([x for x, _ in items]), torch.cat([y for _, y in items])

train = DataLoader(Utterances(train_utts, True), batch_size=8, shuffle=True, collate_fn=collate)
val = DataLoader(Utterances(val_utts, VAL_PER_UTTERANCE), batch_size=8, collate_fn=collate)
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
lossf = nn.CrossEntropyLoss()
for epoch in range(6):
    model.train()
    for x, y in train:
        loss = lossf(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        vl = sum(lossf(model(x), y).item() for x, y in val) / len(val)
    print(f"epoch {epoch} train {loss.item():.4f} val {vl:.4f}")
"""


def _mismatch(report) -> list:
    return [f for f in report.findings if f.category == "preprocessing_mismatch"]


def test_per_utterance_statistics_in_training_only_are_a_mismatch(tmp_path: Path) -> None:
    found = _mismatch(planner_report(tmp_path, SCRIPT.replace("VAL_PER_UTTERANCE", "False")))
    assert found and "standardized with its own statistics" in found[0].evidence[0].text


def test_per_utterance_statistics_in_both_phases_are_healthy(tmp_path: Path) -> None:
    assert not _mismatch(planner_report(tmp_path, SCRIPT.replace("VAL_PER_UTTERANCE", "True")))
