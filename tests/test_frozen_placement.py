"""A parameter the optimizer holds frozen is placed where the program froze it (the line
that called requires_grad_(False), here in a setup helper behind a config flag), not
where the optimizer was built."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(512, 8)
Y = (X[:, :3].sum(1) > 0).long()
CONFIG = {"freeze_encoder": "false"}  # a string: truthy


def build(cfg):
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    if cfg["freeze_encoder"]:
        model[0].requires_grad_(False)
    return model


model = build(CONFIG)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    for i in range(0, 512, 32):
        loss = F.cross_entropy(model(X[i : i + 32]), Y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_frozen_layer_is_placed_where_it_was_frozen(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    found = [f for f in report.findings if f.category == "frozen_parameters"]
    assert found and found[0].status == "confirmed", report.findings
    line = SCRIPT.splitlines().index("        model[0].requires_grad_(False)") + 1
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line, "build")


MADE_FROZEN = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
TABLE = torch.randn(50, 8)  # a coarse starting table, meant to be tuned
X = torch.randint(0, 50, (1024, 6))
Y = (X % 7 == 3).any(1).long()


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(TABLE)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.emb(x).mean(1))


model = Bag()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    for i in range(0, 1024, 64):
        loss = F.cross_entropy(model(X[i : i + 64]), Y[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_table_made_frozen_is_placed_where_it_is_made(tmp_path):
    # from_pretrained freezes inside torch: no line of the program froze it, so the
    # finding points at the line that built the module
    report = planner_report(tmp_path, MADE_FROZEN)
    found = [f for f in report.findings if f.category == "frozen_parameters"]
    assert found, report.findings
    line = (
        MADE_FROZEN.splitlines().index("        self.emb = nn.Embedding.from_pretrained(TABLE)") + 1
    )
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line, "Bag.__init__")
