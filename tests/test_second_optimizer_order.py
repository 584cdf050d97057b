"""Two optimizers stepped one after the other on one backward: the second one's
zero_grad written between the first one's step and its own runs after the backward, so
its step sees zeroed gradients (an iteration is cut at each step, so the order of the
calls alone does not show it: the tracer counts, per optimizer, steps taken on gradients
zeroed since the last backward). Its twin, a GAN, zeroes the generator after the
discriminator's backward but before the generator's own: nothing is discarded."""

from __future__ import annotations

from conftest import planner_report

TWO = """import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(2000, 12)
Y = torch.sin(X[:, :3].sum(1, keepdim=True)) + 0.1 * X[:, 3:4]
enc = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 16), nn.Tanh())
head = nn.Linear(16, 1)
opt_head = torch.optim.Adam(head.parameters(), lr=3e-3)
opt_enc = torch.optim.Adam(enc.parameters(), lr=3e-3)
for epoch in range(6):
    perm = torch.randperm(2000)
    for i in range(0, 2000, 50):
        j = perm[i:i + 50]
        loss = nn.functional.mse_loss(head(enc(X[j])), Y[j])
        opt_head.zero_grad()
        loss.backward()
        opt_head.step()
        opt_enc.zero_grad()
        opt_enc.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""

GAN = """import torch
from torch import nn

torch.manual_seed(0)
real = torch.randn(4000, 2) * 0.3 + torch.tensor([1.0, -1.0])
G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
for epoch in range(4):
    for i in range(0, 4000, 100):
        x = real[i:i + 100]
        fake = G(torch.randn(100, 4))
        opt_d.zero_grad()
        d_loss = bce(D(x), torch.ones(100, 1)) + bce(D(fake.detach()), torch.zeros(100, 1))
        d_loss.backward()
        opt_d.step()
        opt_g.zero_grad()
        g_loss = bce(D(fake), torch.ones(100, 1))
        g_loss.backward()
        opt_g.step()
    print(f"epoch {epoch} d {d_loss.item():.3f} g {g_loss.item():.3f}")
"""


def test_a_second_optimizer_zeroed_between_backward_and_its_step_is_step_order(tmp_path):
    report = planner_report(tmp_path, TWO)
    (f,) = [f for f in report.findings if f.status == "confirmed"]
    assert (f.category, f.line) == ("step_order", 19)


def test_a_generator_zeroed_after_the_discriminators_backward_is_no_defect(tmp_path):
    report = planner_report(tmp_path, GAN)
    assert not [f for f in report.findings if f.category == "step_order"]
    assert not [f for f in report.findings if f.status == "confirmed"]
