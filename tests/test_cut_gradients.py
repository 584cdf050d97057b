"""Gradients taken with torch.autograd.grad inside a training iteration: without
create_graph they are cut from the graph, and a penalty built from them (an eikonal
term) counts in the loss and trains nothing; the rerun that asks for the graph learns.
With create_graph=True (a PINN's residual) they are part of the graph, and gradients
used as data (an adversarial step on the inputs) are no term."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 64), nn.Softplus(beta=10), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
pool = torch.rand(1024, 2) * 2 - 1
for step in range(300):
    q = pool[(step % 4) * 256 : (step % 4 + 1) * 256].clone().requires_grad_(True)
    f = model(q).squeeze(-1)
    (g,) = torch.autograd.grad(f, q, grad_outputs=torch.ones_like(f)CREATE)
    target = q.norm(dim=-1) - 0.5
    eikonal = ((g.norm(dim=-1) - 1.0) ** 2).mean()
    loss = 0.01 * (f - target).abs().mean() + eikonal
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_penalty_on_gradients_taken_without_create_graph_is_a_cut_term(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("CREATE", ", retain_graph=True"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["detached_graph"], report.findings
    assert found[0].location.line == 11


def test_gradients_taken_with_create_graph_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("CREATE", ", create_graph=True"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_gradients_used_as_data_for_an_adversarial_step_are_no_term(tmp_path):
    script = SCRIPT.replace("CREATE", ", retain_graph=True").replace(
        "    loss = 0.01 * (f - target).abs().mean() + eikonal\n",
        "    q_adv = (q + 0.01 * g.sign()).detach()\n"
        "    loss = (model(q_adv).squeeze(-1) - target).abs().mean()\n",
    )
    report = planner_report(tmp_path, script)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
