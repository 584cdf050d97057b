"""A character model whose targets are stored already shifted (`data[1:]`) and then cut
one position later again: each input position is paired with the character two ahead.
The trace sees the integer targets equal to the model's input moved two positions, at
every loss call and never by one; a next-token model (moved one) passes."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset
torch.manual_seed(0)
text = ("the quick brown fox jumps over the lazy dog " * 200).encode()
data = torch.tensor(list(text), dtype=torch.long)
class Windows(Dataset):
    def __init__(self, data, block=16):
        self.data, self.block = data, block
        self.targets = data[1:]
    def __len__(self):
        return len(self.data) - self.block - 2
    def __getitem__(self, s):
        x = self.data[s:s + self.block]
        y = TARGET
        return x, y
loader = DataLoader(Windows(data), batch_size=32, shuffle=True)
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(256, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, 256)
    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)
model = LM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step, (x, y) in enumerate(loader):
    loss = nn.functional.cross_entropy(model(x).reshape(-1, 256), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step == 120:
        break
print(f"loss {loss.item():.3f}")
"""


def _confirmed(report) -> list[tuple[str, str | None]]:
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_targets_two_positions_ahead_are_misaligned(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("TARGET", "self.targets[s + 1:s + 1 + self.block]")
    )
    assert _confirmed(report) == [("label_misaligned", "Windows.__getitem__")]
    pairing = next(i for s in report.stages for i in s.checklist if i.id == "pairing")
    assert "moved 2 positions" in pairing.detail


def test_next_token_targets_pass(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("TARGET", "self.targets[s:s + self.block]"))
    assert _confirmed(report) == []
