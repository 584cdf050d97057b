"""One scheduler stepped from two lines of the program (a per-batch call added beside the
per-epoch one) advances at the sum of their rates: found from the lines that stepped it
and the learning rate it left, placed at the line that stepped it most."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(512, 8)
Y = (X[:, :3].sum(1) > 0).long()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.sched = torch.optim.lr_scheduler.StepLR(self.opt, step_size=10, gamma=0.5)

    def epoch(self):
        for i in range(0, 512, 32):
            loss = F.cross_entropy(self.model(X[i : i + 32]), Y[i : i + 32])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.sched.step()  # PER BATCH
        return loss.item()


trainer = Trainer(nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)))
for epoch in range(6):
    last = trainer.epoch()
    trainer.sched.step()
print(f"loss={last:.4f}")
"""


def test_a_scheduler_stepped_from_two_lines_is_placed_at_the_busier_one(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    found = [f for f in report.findings if f.category == "scheduler_misuse"]
    assert found and found[0].status == "confirmed", report.findings
    line = next(i for i, s in enumerate(SCRIPT.splitlines(), 1) if "# PER BATCH" in s)
    assert (found[0].file, found[0].line, found[0].symbol) == ("train.py", line, "Trainer.epoch")
    assert report.finding(report.root_cause) is found[0]


def test_one_line_stepping_the_schedule_is_no_finding(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("            self.sched.step()  # PER BATCH\n", "")
    )
    assert not [f for f in report.findings if f.category == "scheduler_misuse"], report.findings
