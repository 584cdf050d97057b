"""A prediction [B, 1] combined with a per-sample offset [B] between the forward and the
loss grows to [B, B], and the loss (poisson_nll_loss: no warning) compares every
prediction with every target. The broadcast is in the loop, not the model, and the loss
is computed from its result."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2048, 6)
exposure = torch.rand(2048) * 2 + 0.5
rate = torch.exp(0.6 * x[:, 0] - 0.4 * x[:, 1])
counts = torch.poisson(rate * exposure)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    for b in torch.randperm(2048).split(128):
        log_mu = PREDICTION + exposure[b].log()
        loss = F.poisson_nll_loss(log_mu, counts[b], log_input=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_an_offset_added_across_the_batch_is_a_broadcast_the_loss_reads(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PREDICTION", "model(x[b])"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert found and found[0].category == "broadcast_mismatch", report.findings
    assert found[0].location.line == 14


def test_the_offset_added_to_the_squeezed_prediction_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PREDICTION", "model(x[b]).squeeze(-1)"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_data_made_by_a_broadcast_is_data(tmp_path):
    # waves built as phase[:, None] + t[None, :] grow by a broadcast before training; the
    # prediction and target then match in shape, and the loss compares them one to one
    script = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
t = torch.linspace(0, 6.28, 32)
phase = torch.rand(1024) * 6.28
waves = torch.sin(phase[:, None] + t[None, :])
x, y = waves[:, :24], waves[:, 24:]
model = nn.Sequential(nn.Linear(24, 64), nn.Tanh(), nn.Linear(64, 8))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    for i in torch.randperm(1024).split(64):
        loss = F.mse_loss(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""
    report = planner_report(tmp_path, script)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


PADDED = """import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
# sequences of 1..5 digits counting up (wrapping), padded with 0 to length 12
def batch(n):
    start = torch.randint(1, 6, (n, 1))
    length = torch.randint(4, 12, (n, 1))
    pos = torch.arange(12)
    seq = (start + pos - 1) % 5 + 1
    return torch.where(pos < length, seq, torch.zeros_like(seq))
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 16)
        self.rnn = nn.GRU(16, 32, batch_first=True)
        self.out = nn.Linear(32, 6)
    def forward(self, tokens):
        return self.out(self.rnn(self.emb(tokens))[0])
def token_loss(logits, targets):
    ce = F.cross_entropy(logits.reshape(-1, 6), targets.reshape(-1), reduction="none")
    keep = (targets != 0).reshape(-1).float()
    return (ce * keep).sum() / keep.sum().clamp(min=1.0)
@torch.no_grad()
def fives_accuracy(model, data):
    inp, tgt = data[:, :-1], data[:, 1:]
    pred = model(inp).argmax(-1)
    fives = tgt == 5
    return (pred[fives] == tgt[fives]).float().mean().item()
model = LM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
val = batch(300)
for step in range(150):
    data = batch(64)
    loss = token_loss(model(data[:, :-1]), data[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 49:
        print(f"step {step} loss {loss.item():.4f} fives_acc {fives_accuracy(model, val):.3f}")
"""


def test_a_padding_mask_built_by_a_broadcast_in_the_loop_is_data(tmp_path):
    # each step makes its batch: `pos < length` ([12] against [64, 1]) pads the sequences;
    # no operand is on the gradient's path, so the loss computed from them reads data
    report = planner_report(tmp_path, PADDED)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
