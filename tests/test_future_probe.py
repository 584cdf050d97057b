"""A next-token model must not read the positions after the one it predicts: the targets
are the input moved one position, and the future probe changes only the later inputs
and looks at the earlier outputs. A tiny attention LM whose mask keeps every position is
a confirmed split_leakage placed at the attention's forward; with a causal mask it is
healthy. Targets masked with a negative id still count as the next tokens."""

from __future__ import annotations

import torch
from conftest import planner_report

from torch_investigate.tools.trace.future import shift_axis

SCRIPT = """
import math
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
V, T, B, C = 12, 16, 32, 32


def batch():
    start = torch.randint(0, V, (B, 1))
    steps = torch.randint(1, 3, (B, T))
    seq = (start + steps.cumsum(1)) % V
    return seq[:, :-1], seq[:, 1:]


class Attention(nn.Module):
    def __init__(self, c, t):
        super().__init__()
        self.qkv = nn.Linear(c, 3 * c)
        self.proj = nn.Linear(c, c)
        self.register_buffer("mask", torch.tril(torch.ones(t, t)).view(1, t, t))

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = q @ k.transpose(1, 2) / math.sqrt(x.shape[-1])
        n = x.shape[1]
        att = att.masked_fill(self.mask[:, :n, :n] MASKED, float("-inf"))
        return self.proj(F.softmax(att, dim=-1) @ v)


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, C)
        self.pos = nn.Parameter(torch.zeros(1, T, C))
        self.attn = Attention(C, T)
        self.head = nn.Linear(C, V)

    def forward(self, idx):
        h = self.tok(idx) + self.pos[:, : idx.shape[1]]
        h = h + self.attn(h)
        return self.head(h)


model = TinyLM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(300):
    x, y = batch()
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"final loss {loss.item():.4f}")
"""


def test_attention_that_sees_the_later_tokens_is_found(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("MASKED", "< 0"))
    f = report.finding(report.root_cause)
    assert f is not None and f.category == "split_leakage" and f.status == "confirmed"
    assert (f.file, f.symbol) == ("train.py", "Attention.forward")
    assert "outputs before position 7 move" in f.evidence[0].text


def test_a_causal_mask_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("MASKED", "== 0"))
    assert not [f for f in report.findings if f.status == "confirmed"]


def test_masked_next_token_targets_still_count_as_shifted():
    """minGPT's adder masks the first half of each row's targets with -1."""
    x = torch.arange(1, 7).repeat(16, 1)
    y = torch.cat([torch.full((16, 3), -1), x[:, 4:], torch.full((16, 1), 9)], dim=1)
    assert shift_axis(x, y) == 1
    assert shift_axis(x[:8], y[:8]) is None  # 16 positions compared: too few to rule out chance
    one = torch.tensor([[1, 2, 3, 4, 5, 6]])
    assert shift_axis(one, torch.tensor([[2, 3, 4, 5, 6, 7]])) == 1
    assert shift_axis(one, torch.tensor([[2, 3, 9, 5, 6, 7]])) is None
