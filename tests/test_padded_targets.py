"""Padding the loss scores: a names model pads each sequence with its end token, and the
dataset no longer sets the targets after the end token to the loss's ignore_index. From
there to the end of each sequence the input and the target are both the pad value: the
tracer counts those positions among the scored ones (over 40% here) -> loss_mask_error
at the loss call. With the tail set to -1 it is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import random
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
SYL = ["ka", "lo", "mi", "ra", "ten", "su", "vo", "ne", "da", "ri"]
names = ["".join(random.choice(SYL) for _ in range(random.randint(1, 3))) for _ in range(3000)]
chars = sorted(set("".join(names)))
stoi = {c: i + 1 for i, c in enumerate(chars)}
MAX = max(len(n) for n in names) + 1


class Names(Dataset):
    def __len__(self):
        return len(names)

    def __getitem__(self, i):
        ix = torch.tensor([stoi[c] for c in names[i]], dtype=torch.long)
        x = torch.zeros(MAX, dtype=torch.long)
        y = torch.zeros(MAX, dtype=torch.long)
        x[1 : 1 + len(ix)] = ix
        y[: len(ix)] = ix
PADLINE
        return x, y


class CharModel(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = nn.Embedding(vocab, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.head = nn.Linear(64, vocab)

    def forward(self, x, targets=None):
        h, _ = self.rnn(self.emb(x))
        logits = self.head(h)
        if targets is None:
            return logits
        loss = nn.functional.cross_entropy(
            logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1
        )
        return logits, loss


data = DataLoader(Names(), batch_size=64, shuffle=True)
model = CharModel(len(chars) + 1)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for epoch in range(3):
    for x, y in data:
        _, loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""
IGNORED = "        y[len(ix) + 1 :] = -1  # positions after the end token are not scored\n"


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_padding_after_the_end_token_scored_is_a_loss_mask_error(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PADLINE\n", ""))
    assert _confirmed(report) == [("loss_mask_error", "CharModel.forward", 40)]


def test_padding_set_to_the_ignored_index_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PADLINE\n", IGNORED))
    assert _confirmed(report) == []
