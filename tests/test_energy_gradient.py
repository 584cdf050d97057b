"""A Hamiltonian network trained on its input gradient (dH/dx): the energy's last bias
never gets a gradient (a constant has none), and the evaluation rollout, under
torch.enable_grad with each stage's state detached, cuts nothing the training needs.
Keeping the graph at that detach reaches nothing and changes nothing: no defect."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, x):
        if not x.requires_grad:
            x = x.requires_grad_(True)
        (dH,) = torch.autograd.grad(self.H(x).sum(), x, create_graph=self.training)
        return torch.stack([dH[..., 1], -dH[..., 0]], -1)


def rollout(model, x, steps, dt=0.05):
    with torch.enable_grad():
        for _ in range(steps):
            x = (x + dt * model(x)).detach()
    return x


torch.manual_seed(0)
x = torch.randn(2048, 2)
dxdt = torch.stack([x[:, 1], -x[:, 0]], -1)
model = HNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(4):
    model.train()
    for i in torch.randperm(2048).split(128):
        loss = ((model(x[i].clone()) - dxdt[i]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    end = rollout(model, x[:64].clone(), 20)
    print(f"epoch {epoch} loss={loss.item():.4f} drift={end.norm(dim=-1).mean().item():.3f}")
"""


def test_an_energy_s_bias_and_an_evaluation_rollout_are_no_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
