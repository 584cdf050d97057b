"""A feature map (B, C, H, W) reshaped to one vector per column (B, W, C*H) without moving
the width axis first: each slot then holds a few channels over all columns. The tracer
sees a reshape that reorders axes while merging some, which the run as a permute learns
from; a reshape that only merges neighbouring axes is no such case."""

from __future__ import annotations

from conftest import planner_report

from torch_investigate.tools.trace.ops import permutation_of

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn


class ColumnReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.head = nn.Linear(8 * 6, 5)

    def forward(self, img):
        feats = F.relu(self.conv(img))
        b, c, h, w = feats.shape
        cols = COLUMNS
        return self.head(cols)


torch.manual_seed(0)
labels = torch.randint(0, 5, (1024, 7))
img = torch.zeros(1024, 1, 6, 7)
for k in range(5):
    img[:, 0, k, :] += (labels == k).float()
img += 0.3 * torch.randn_like(img)
model = ColumnReader()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    for i in torch.randperm(1024).split(64):
        loss = F.cross_entropy(model(img[i]).reshape(-1, 5), labels[i].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_axes_reordered_while_merged_are_a_permutation():
    assert permutation_of([8, 4, 3, 5], [8, 5, 12]) == [0, 3, 1, 2]
    assert permutation_of([8, 12], [8, 3, 4]) is None  # a split
    assert permutation_of([8, 5, 6], [40, 6]) is None  # a merge
    assert permutation_of([8, 4, 3, 5], [8, 60]) is None


def test_columns_read_without_moving_the_width_axis_are_a_scramble(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("COLUMNS", "feats.reshape(b, w, c * h)"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["reshape_scramble"], report.findings
    assert found[0].location.line == 15


def test_columns_read_after_moving_the_width_axis_are_healthy(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("COLUMNS", "feats.permute(0, 3, 1, 2).reshape(b, w, c * h)")
    )
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
