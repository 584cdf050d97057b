"""Structures that are right by design are not tested as if they were samples or pairs: a
graph's sparse adjacency ties a forward's rows together, and a GAN's real/fake labels
give no sample a target of its own to be mispaired with."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import torch
from conftest import planner_report
from torch import nn

from torch_investigate.tools.trace.probes import forward_probes


class GraphConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x, adj):
        return torch.sparse.mm(adj, self.lin(x))


def test_a_forward_given_a_sparse_adjacency_is_not_probed_for_independent_rows():
    adj = torch.eye(5).to_sparse()
    got = forward_probes(SimpleNamespace(), GraphConv(), (torch.randn(5, 4), adj), {})
    assert got["status"] == "not_applicable" and "sparse" in got["reason"]


TINY_GAN = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
real = torch.randn(512, 2) * 0.3 + torch.tensor([1.0, -1.0])
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
for step in range(150):
    x = real[torch.randint(0, 512, (32,))]
    fake = G(torch.randn(32, 4))
    ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
    d_loss = F.binary_cross_entropy_with_logits(D(x), ones) + F.binary_cross_entropy_with_logits(
        D(fake.detach()), zeros
    )
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    if step % 50 == 0:
        print(f"step {step} d_loss={d_loss.item():.3f} g_loss={g_loss.item():.3f}")
print(f"mean_distance={(G(torch.randn(256, 4)).mean(0) - real.mean(0)).norm().item():.3f}")
"""


def test_a_gans_constant_labels_leave_no_pairing_to_test(tmp_path: Path):
    report = planner_report(tmp_path, TINY_GAN, "gan.py")
    data = next(s for s in report.stages if s.stage == 2)
    pairing = next(i for i in data.checklist if i.id == "pairing")
    assert pairing.outcome == "not_applicable", pairing.detail
    assert "one value as the target of all its samples" in pairing.detail
    assert not [f for f in report.findings if f.status == "confirmed"]
