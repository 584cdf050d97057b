"""A transpose inside the forward moves the batch axis; a softmax or reduction over it
there mixes the samples (the mixing op is found, not the transpose, which only moves
the axis); a branch whose output nothing reads is no cut graph."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(1024, 8)
Y = (X[:, :2].sum(1) > 0).long() + (X[:, 2] > 1).long()


class Mixture(nn.Module):
    def __init__(self, k=4):
        super().__init__()
        self.prior = nn.Linear(8, k)
        self.parts = nn.ModuleList(nn.Linear(8, 3) for _ in range(k))
        self.unused = nn.Linear(8, 8)

    def forward(self, x):
        comp = torch.stack([F.log_softmax(p(x), dim=-1) for p in self.parts])  # [K, N, 3]
        log_pi = F.log_softmax(self.prior(x).t(), dim=PRIOR_DIM)  # [K, N]
        _ = x + self.unused(x)  # computed, never read
        return torch.logsumexp(log_pi.unsqueeze(-1) + comp, dim=0)


model = Mixture()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 1024, 64):
        loss = F.nll_loss(model(X[i : i + 64]), Y[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_softmax_over_the_transposed_batch_axis_is_the_wrong_dimension(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PRIOR_DIM", "-1"))
    root = report.finding(report.root_cause)
    line = next(i for i, s in enumerate(SCRIPT.splitlines(), 1) if "PRIOR_DIM" in s)
    assert root is not None and root.category == "wrong_dimension", report.findings
    assert (root.file, root.line) == ("train.py", line)
    assert not [f for f in report.findings if f.category == "reshape_scramble"]
    # the unused layer's parameters get no gradient, but nothing cut the graph
    unused = [f for f in report.findings if f.category == "detached_graph"]
    assert all(f.status == "plausible" for f in unused), unused


def test_the_softmax_over_the_components_is_no_finding(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PRIOR_DIM", "0"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
