"""Copies cut from the parameters stand in for them: every iteration builds working
weights with `.clone().detach().requires_grad_(True)` (a MAML inner loop), so the loss
reaches fresh leaves and the tensors the optimizer holds never get a gradient."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-3, 3, 256).unsqueeze(1)
y = torch.sin(x)
params = {
    "w1": (0.5 * torch.randn(1, 32)).requires_grad_(),
    "b1": torch.zeros(32, requires_grad=True),
    "w2": (0.2 * torch.randn(32, 1)).requires_grad_(),
}
opt = torch.optim.Adam(params.values(), lr=1e-2)


def working_copy(p):
    return {k: COPY for k, v in p.items()}


def forward(w, x):
    return torch.tanh(x @ w["w1"] + w["b1"]) @ w["w2"]


for it in range(300):
    w = working_copy(params)
    i = torch.randint(0, 256, (32,))
    loss = F.mse_loss(forward(w, x[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_working_copies_cut_from_the_parameters_are_a_detached_graph(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("COPY", "v.clone().detach().requires_grad_(True)")
    )
    found = [f for f in report.findings if f.category == "detached_graph"]
    assert found and found[0].status == "confirmed", report.findings
    assert "stand in for them" in found[0].evidence[-1].text
    assert report.finding(report.root_cause) is found[0]


def test_working_copies_that_keep_the_graph_are_no_finding(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("COPY", "v.clone()"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
