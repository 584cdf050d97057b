"""A parameter the optimizer holds, read in the training forward only through `.data`
(`self.emb.weight.data[ids]`, a "plain gather" on an embedding table): its module never
runs, its values enter the forward, and its gradient never arrives. The tracer records
which parameters the cut tensor reached; such a parameter counts among the unreachable
ones, and keeping the graph at the cut lets the loss fall further -> detached_graph at
the `.data` line. The table read through the module is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
ids = torch.randint(0, 30, (3000,))
x = torch.randn(3000, 4)
effect = torch.randn(30)
y = effect[ids] + x[:, 0] + 0.1 * torch.randn(3000)


class Sales(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 4)
        self.mlp = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))

    def vectors(self, i):
        return LOOKUP

    def forward(self, i, feats):
        return self.mlp(torch.cat([self.vectors(i), feats], 1)).squeeze(1)


model = Sales()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for b in range(0, 3000, 100):
        loss = F.mse_loss(model(ids[b : b + 100], x[b : b + 100]), y[b : b + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_an_embedding_table_read_through_data_is_a_detached_graph(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LOOKUP", "self.emb.weight.data[i]"))
    assert _confirmed(report) == [("detached_graph", "Sales.vectors", 19)]


def test_an_embedding_table_read_through_its_module_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LOOKUP", "self.emb(i)"))
    assert _confirmed(report) == []
