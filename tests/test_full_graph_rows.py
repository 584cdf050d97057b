"""Full-graph training (pytorch/examples' GCN, PyG's node classification): one forward
over every node, the losses reading their rows by index. Evaluation rows among the
training rows are leakage; a pass over the training rows is a train-set score; batches
masked per batch are not compared (their rows are positions in a batch, not samples)."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
N = 600
X = torch.randn(N, 16)
A = (torch.rand(N, N) < 0.02).float()
A = (A + A.T + torch.eye(N)).clamp(max=1)
A = A / A.sum(1, keepdim=True)
Y = ((A @ X)[:, :4].sum(1) > 0).long()


class GraphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(16, 32), nn.Linear(32, 2)

    def forward(self, x, adj):
        return self.l2(adj @ torch.relu(self.l1(adj @ x)))


perm = torch.randperm(N)
idx_test, idx_val, idx_train = perm[:150], perm[150:250], TRAIN_ROWS
model = GraphNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def evaluate(rows):
    model.eval()
    with torch.no_grad():
        out = model(X, A)
        return F.cross_entropy(out[rows], Y[rows]).item()


for epoch in range(150):
    model.train()
    opt.zero_grad()
    out = model(X, A)
    loss = F.cross_entropy(out[idx_train], Y[idx_train])
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, evaluate(idx_train), evaluate(idx_val))
print(f"test_loss={evaluate(idx_test):.4f}")
"""


def test_evaluation_rows_among_the_training_rows_are_leakage(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("TRAIN_ROWS", "perm[:-150]"))
    found = [f for f in report.findings if f.category == "split_leakage"]
    assert found and found[0].status == "confirmed", report.findings
    assert "are among the" in found[0].evidence[-1].text
    assert report.finding(report.root_cause) is found[0]
    # placed where the training rows were chosen, not where the loss reads them
    assert (found[0].line, found[0].symbol) == (24, "<module>")  # the `idx_train =` line


def test_disjoint_rows_and_a_train_set_score_are_no_leakage(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("TRAIN_ROWS", "perm[250:]"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
    item = next(i for s in report.stages for i in s.checklist if i.id == "leakage")
    assert item.outcome == "passed" and "score the training rows" in item.detail, item.detail
