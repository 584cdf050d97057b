"""An ensemble evaluated once, after all its members are trained: the run as written
goes past the step cap (up to a few times it) until that evaluation has happened, and the
evaluation's outputs, read through `torch.stack` of a list, count as read."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(512, 3)
y = (x.sum(1, keepdim=True) > 0).float()


def member():
    return nn.Sequential(nn.Linear(3, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))


members = []
for k in range(3):
    m = member()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for step in range(40):
        i = torch.randint(0, 512, (64,))
        loss = nn.functional.binary_cross_entropy_with_logits(m(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    members.append(m)

SWITCH
xt = torch.sort(torch.randn(200, 3), dim=0).values
with torch.no_grad():
    p = torch.stack([m(xt[:50]) for m in members]).mean(0)
print("acc", ((p > 0).float() == (xt[:50].sum(1, keepdim=True) > 0).float()).float().mean().item())
"""


def _trace(tmp_path: Path, switch: str):
    from torch_investigate.tools.sandbox import Sandbox
    from torch_investigate.tools.tracefile.trace import load_trace

    (tmp_path / "ens.py").write_text(SCRIPT.replace("SWITCH", switch))
    with Sandbox(tmp_path) as sandbox:
        cfg = {"max_steps": 10, "max_total_steps": 50, "fast_forward": True}
        res = sandbox.run(["ens.py"], trace_config=cfg, label="ens")
        return load_trace(res.trace_path)


def test_a_run_past_the_cap_without_an_evaluation_goes_on_until_it_evaluates(tmp_path):
    t = _trace(tmp_path, "[m.eval for m in members]")
    assert t.status == "completed" and t.n_steps == 120, (t.status, t.stop_reason)
    evals = t.eval_forwards()
    assert len(evals) == 3 and all(f.output_read and f.training for f in evals)


def test_members_left_in_train_mode_for_their_evaluation_are_found(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SWITCH", "[m.eval for m in members]"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["train_mode_in_eval"], report.findings
