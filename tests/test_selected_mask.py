"""A loss whose operands are selected by a boolean mask over padded [B, T] tokens
(`F.cross_entropy(logits[keep], targets[keep])`): the tracer counts the kept positions
against every position of the mask and reads which target values the selection came
from. A mask that keeps the padding only (a helper documented as True where the position
is padding, used as the mask of positions to keep) leaves one target value among the
many the tokens take -> loss_mask_error, placed where the helper is called; its inverse
is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import random
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, VOCAB = 0, 1, 30
random.seed(0)
torch.manual_seed(0)


def row():
    n = random.randint(4, 12)
    start = random.randint(2, VOCAB - 1)
    ids = [BOS] + [2 + (start + 3 * k) % (VOCAB - 2) for k in range(n)]
    return ids + [PAD] * (14 - len(ids))


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.out = nn.Linear(32, VOCAB)

    def forward(self, x):
        return self.out(self.rnn(self.emb(x))[0])


def pad_mask(tokens):
    \"\"\"True where the position holds padding.\"\"\"
    return tokens == PAD


def masked_ce(logits, targets):
    keep = KEEP
    return F.cross_entropy(logits[keep], targets[keep])


model = LM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(150):
    seq = torch.tensor([row() for _ in range(32)])
    loss = masked_ce(model(seq[:, :-1]), seq[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_a_selection_that_keeps_the_padding_only_is_a_loss_mask_error(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("KEEP", "pad_mask(targets)"))
    assert _confirmed(report) == [("loss_mask_error", "masked_ce", 35)]


def test_a_selection_of_the_real_tokens_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("KEEP", "~pad_mask(targets)"))
    assert _confirmed(report) == []
