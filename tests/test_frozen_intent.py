"""Frozen parameters handed to the optimizer are a defect when they were meant to train.
`model.parameters()` with a part frozen on purpose is ordinary PyTorch (round 15's fixed
random projection beside a learned embedding: healthy). The run tells: trained, the
frozen part lets the loss fall about as it does frozen -> a suspicion only; a randomly
initialized trunk left frozen while only a head trains (a staged unfreezing that never
happened) makes the loss reach its level several times later -> confirmed."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(3000, 16)
y = (x[:, :3].sum(1) > 0).long()
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 8)
        self.trunk = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
        self.head = nn.Linear(8, 2)
    def forward(self, x):
        return self.head(self.trunk(x) + self.proj(x))
model = Net()
FREEZE
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
"""


def _statuses(report):
    return [f.status for f in report.findings if f.category == "frozen_parameters"]


def test_a_fixed_random_projection_beside_a_trained_trunk_is_no_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("FREEZE", "model.proj.requires_grad_(False)"))
    assert "plausible" in _statuses(report)
    assert not [f for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_random_trunk_never_unfrozen_is_confirmed(tmp_path):
    freeze = "model.trunk.requires_grad_(False)\nmodel.proj.requires_grad_(False)"
    report = planner_report(tmp_path, SCRIPT.replace("FREEZE", freeze))
    assert "confirmed" in _statuses(report)


# A frozen embedding table (`from_pretrained` freezes by default) whose ids collide in
# pairs: the loss plateaus where the pairs cannot be told apart -> confirmed. Its twin, a
# frozen pretrained table for items evaluated cold (never seen in training): trained,
# the table memorizes the training items' noisy labels (the loss falls several times
# lower) and the program's held-out accuracy does not move -> a suspicion only.
COLLIDING = """import torch
from torch import nn
torch.manual_seed(0)
N_IDS = 40
# a pretrained-looking table: 6 features per id, computed from the id's group (two ids per group)
table = torch.stack([torch.tensor([g % 2, g // 2 % 2, g // 4 % 2, g // 8 % 2, g // 16 % 2, 1.0]) for g in (torch.arange(N_IDS) // 2).tolist()]).float()
label_of = torch.randint(0, 2, (N_IDS,))
def make(n, seed, lo, hi):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(lo, hi, (n,), generator=g)
    return ids, label_of[ids]
ids_tr, y_tr = make(3000, 1, 0, N_IDS)
ids_va, y_va = make(1000, 2, 0, N_IDS)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(table)
        self.head = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
    def forward(self, ids):
        return self.head(self.emb(ids))
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(8):
    perm = torch.randperm(len(ids_tr))
    for i in range(0, len(ids_tr), 64):
        idx = perm[i:i + 64]
        loss = nn.functional.cross_entropy(model(ids_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(ids_va).argmax(1) == y_va).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_acc {acc:.3f}")
"""

COLD_START = """import torch
from torch import nn
torch.manual_seed(0)
N_IDS = 400
# a pretrained table: 8 features per id; an item's label follows its features, but the
# labelling is noisy per item (15% of items carry the wrong label)
g = torch.Generator().manual_seed(0)
table = torch.randn(N_IDS, 8, generator=g)
label_of = (table[:, :3].sum(1) > 0).long()
flip = torch.rand(N_IDS, generator=g) < 0.15
label_of[flip] = 1 - label_of[flip]
def make(n, seed, lo, hi):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(lo, hi, (n,), generator=g)
    return ids, label_of[ids]
# cold start: evaluation items were never seen in training
ids_tr, y_tr = make(3000, 1, 0, 200)
ids_va, y_va = make(1000, 2, 200, N_IDS)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(table)
        self.head = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    def forward(self, ids):
        return self.head(self.emb(ids))
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(8):
    perm = torch.randperm(len(ids_tr))
    for i in range(0, len(ids_tr), 64):
        idx = perm[i:i + 64]
        loss = nn.functional.cross_entropy(model(ids_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(ids_va).argmax(1) == y_va).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_acc {acc:.3f}")
"""


@pytest.mark.slow
def test_a_frozen_table_whose_ids_collide_is_confirmed(tmp_path):
    assert "confirmed" in _statuses(planner_report(tmp_path, COLLIDING))


def test_a_frozen_table_for_cold_items_is_no_defect_though_training_it_memorizes(tmp_path):
    report = planner_report(tmp_path, COLD_START)
    assert "plausible" in _statuses(report)
    assert not [f for f in report.findings if f.status == "confirmed"]
