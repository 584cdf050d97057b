"""Images stored channels-last, laid out for the network with `.reshape(n, 3, h, w)` in
the dataset's constructor instead of a permute: every sample's pixels and channels are
read along other axes before the model sees them. The tracer records a reshape of data of
three or more axes to its own sizes in another order before the first forward; the rerun
with that reshape done as a permute learns -> reshape_scramble, placed at the reshape
(and the pairs the scrambled inputs no longer show are no label_misaligned). With the
permute it is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

rng = np.random.default_rng(0)
n, h, w = 1200, 12, 12
label = rng.integers(0, 3, n)
img = rng.normal(0, 0.3, (n, h, w, 3)).astype(np.float32)  # channels-last, as stored
for i in range(n):
    r, c = rng.integers(2, 8, 2)
    img[i, r : r + 4, c : c + 4, label[i]] += 1.5  # a bright square in the label's colour


class Tiles(torch.utils.data.Dataset):
    def __init__(self, tiles, labels):
        LAYOUT
        self.y = torch.from_numpy(labels).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


net = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(16, 3)
)
train = torch.utils.data.DataLoader(Tiles(img[:1000], label[:1000]), batch_size=50, shuffle=True)
val = Tiles(img[1000:], label[1000:])
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
for epoch in range(4):
    for xb, yb in train:
        loss = F.cross_entropy(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (net(val.x).argmax(1) == val.y).float().mean().item()
    print(f"epoch {epoch} val_acc {acc:.3f}")
"""
RESHAPE = "self.x = torch.from_numpy(tiles).reshape(len(tiles), 3, tiles.shape[1], tiles.shape[2])"
PERMUTE = "self.x = torch.from_numpy(tiles).permute(0, 3, 1, 2).contiguous()"


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_channels_last_data_reshaped_to_channels_first_is_a_scramble(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LAYOUT", RESHAPE))
    assert _confirmed(report) == [("reshape_scramble", "Tiles.__init__", 17)]


def test_channels_last_data_permuted_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LAYOUT", PERMUTE))
    assert _confirmed(report) == []
