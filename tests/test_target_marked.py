"""A next-token loss that scores padding is placed where the targets were marked for the
loss: the first fill on the targets' way back from the loss call (a batching helper's
`masked_fill` with the opposite convention), not the loss call that only receives them."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import random

import torch
from torch import nn

PAD, SKIP = 0, -100
random.seed(0)
torch.manual_seed(0)
WORDS = [[random.randint(1, 9) for _ in range(random.randint(3, 12))] for _ in range(3000)]
for w in WORDS:
    for i in range(1, len(w)):
        w[i] = (w[i - 1] * 3 + 1) % 9 + 1


def pairs(words):
    width = max(len(w) for w in words)
    x = torch.full((len(words), width), PAD)
    for i, w in enumerate(words):
        x[i, : len(w)] = torch.tensor(w)
    src, tgt = x[:, :-1], x[:, 1:].clone()
    tgt = tgt.masked_fill(tgt != PAD, SKIP)
    return src, tgt


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.out = nn.Linear(32, 10)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


model = Tiny()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(200):
    src, tgt = pairs(random.sample(WORDS, 32))
    logits = model(src)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 10), tgt.reshape(-1), ignore_index=SKIP)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.3f}")
"""


@pytest.mark.slow
def test_padding_scored_is_placed_at_the_fill_that_marked_the_targets(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    (f,) = [f for f in report.findings if f.status == "confirmed"]
    assert (f.category, f.symbol, f.line) == ("loss_mask_error", "pairs", 21)
