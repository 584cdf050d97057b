"""An evaluation in train mode whose `.eval()` is written but never runs (round 27's
case10: a callback registered for `before_evaluate` on a trainer that fires
`before_eval`): the finding is placed at that `.eval()`, the line the program meant to
switch modes with, found because the run recorded every line that did switch and that
one never did. With the event spelled as the trainer fires it, no finding."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """from collections import defaultdict

import torch
from torch import nn


class Trainer:
    def __init__(self, model, opt):
        self.model, self.opt, self.hooks = model, opt, defaultdict(list)

    def on(self, event, fn):
        self.hooks[event].append(fn)

    def fire(self, event):
        for fn in self.hooks[event]:
            fn(self)

    def evaluate(self, x, y):
        self.fire("before_eval")
        with torch.no_grad():
            acc = (self.model(x).argmax(1) == y).float().mean().item()
        self.fire("after_eval")
        return acc


def switch_modes(trainer):
    trainer.on("EVENT", lambda t: t.model.eval())
    trainer.on("after_eval", lambda t: t.model.train())


torch.manual_seed(0)
x = torch.randn(1200, 12)
y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
model = nn.Sequential(nn.Linear(12, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
trainer = Trainer(model, opt)
switch_modes(trainer)
for epoch in range(6):
    for i in torch.randperm(1000).split(50):
        loss = nn.functional.cross_entropy(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} acc {trainer.evaluate(x[1000:], y[1000:]):.4f}")
"""


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_an_eval_registered_for_an_event_never_fired_is_where_the_mode_is_missed(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("EVENT", "before_evaluate"))
    found = _confirmed(report)
    assert [f.category for f in found] == ["train_mode_in_eval"], report.findings
    assert (found[0].file, found[0].line) == ("train.py", 27), found[0]


def test_an_eval_registered_for_the_event_fired_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("EVENT", "before_eval"))
    assert not _confirmed(report), report.findings
