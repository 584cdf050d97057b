"""A forward that averages through numpy (detach, nanmean, from_numpy) cuts the graph
by construction: keeping the graph there fails on that very line, which proves the cut
as well as a run that learns would."""

from __future__ import annotations

from conftest import planner_report

NUMPY_MEAN = """\
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def masked_mean(states, mask):
    h = states.detach().numpy().copy()
    h[~mask.numpy()] = np.nan
    return torch.from_numpy(np.nanmean(h, axis=1))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16, padding_idx=0)
        self.proj = nn.Linear(16, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, tokens):
        return self.head(masked_mean(torch.tanh(self.proj(self.emb(tokens))), tokens != 0))


torch.manual_seed(0)
tokens = torch.randint(1, 50, (1200, 10))
tokens[:, 7:] = 0
y = (tokens[:, 0] < 25).long()
model = Encoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 1200, 50):
        opt.zero_grad()
        loss = F.cross_entropy(model(tokens[i:i + 50]), y[i:i + 50])
        loss.backward()
        opt.step()
    print(epoch, loss.item())
"""


def test_a_mean_taken_through_numpy_in_the_forward_is_a_confirmed_cut(tmp_path):
    report = planner_report(tmp_path, NUMPY_MEAN)
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in confirmed] == ["detached_graph"], [
        (f.category, f.status) for f in report.findings
    ]
    line = NUMPY_MEAN.splitlines().index("    h = states.detach().numpy().copy()") + 1
    assert (confirmed[0].file, confirmed[0].line) == ("train.py", line)
