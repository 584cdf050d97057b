"""An ignored index is padding when it ends every sequence of the targets before they were
flattened for the loss (a time-first [T, B] batch reshaped to one target per token), and a
real class when the targets are one per sample: the runtime reads the unflattened targets."""

from __future__ import annotations

from pathlib import Path

import torch
from conftest import planner_report

from torch_investigate.tools.trace.padding import ignored_tail


def _flat(x: torch.Tensor) -> torch.Tensor:
    out = x.reshape(-1)
    out._ti_unflat = x
    return out


def test_padding_that_ends_each_time_first_sequence_is_a_tail() -> None:
    tgt = torch.tensor([[3, 4, 5], [6, 0, 7], [0, 0, 8], [0, 0, 0]])  # [T, B], pad 0
    assert ignored_tail(_flat(tgt), 0) is True
    assert ignored_tail(_flat(tgt.t().contiguous()), 0) is True  # batch-first


def test_a_value_scattered_inside_sequences_is_not_a_tail() -> None:
    tgt = torch.tensor([[0, 4, 5], [6, 0, 7], [3, 2, 0], [1, 9, 2]])
    assert ignored_tail(_flat(tgt), 0) is False
    assert ignored_tail(torch.tensor([0, 1, 2, 0]), 0) is None  # never 2-D: one per sample


SEQ2SEQ = """
import torch
from torch import nn
torch.manual_seed(0)
PAD, V, H = 0, 12, 32
emb = nn.Embedding(V, H, padding_idx=PAD)
rnn = nn.GRU(H, H)
head = nn.Linear(H, V)
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.rnn, self.head = emb, rnn, head
    def forward(self, x):                      # x: [T, B], time first
        out, _ = self.rnn(self.emb(x))
        return self.head(out)
model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
g = torch.Generator().manual_seed(1)
def batch(b=32):
    lengths = torch.randint(3, 9, (b,), generator=g)
    T = int(lengths.max())
    x = torch.full((T, b), PAD, dtype=torch.long)
    for j, n in enumerate(lengths.tolist()):
        x[:n, j] = torch.randint(1, V, (n,), generator=g)
    y = torch.where(x == PAD, x, (x % 5) + 1)    # a per-token tag, padding kept
    return x, y
for step in range(150):
    x, y = batch()
    logits = model(x)
    loss = crit(logits.reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 30 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def test_time_first_padding_flattened_for_the_loss_is_not_a_masked_class(tmp_path: Path) -> None:
    report = planner_report(tmp_path, SEQ2SEQ)
    assert not [
        f for f in report.findings if f.category == "loss_mask_error" and f.status == "confirmed"
    ]
