"""Two losses in one iteration, each with its optimizer (a hurdle model: a purchase gate
on 0/1 labels and a spend regressor on log amounts): each loss's targets are read as
that loss's, and gradients left to grow are placed at the backward that fills them."""

from __future__ import annotations

from conftest import planner_report

HURDLE = """\
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(3000, 6)
buys = (X[:, 0] + 0.5 * torch.randn(3000) > 0).float()
spend = torch.where(buys > 0, torch.expm1(1.5 + X[:, 1] + 0.3 * torch.randn(3000)).clamp(min=0.5), 0.0)
gate = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
reg = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
gate_opt = torch.optim.Adam(gate.parameters(), lr=1e-2)
reg_opt = torch.optim.Adam(reg.parameters(), lr=1e-2)
for epoch in range(4):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        xb, bb, sb = X[idx], buys[idx], spend[idx]
        gate_opt.zero_grad()
        loss_gate = F.binary_cross_entropy_with_logits(gate(xb).squeeze(1), bb)
        loss_gate.backward()
        gate_opt.step()
        m = sb > 0
        loss_spend = F.mse_loss(reg(xb[m]).squeeze(1), torch.log1p(sb[m]))
        loss_spend.backward()
        reg_opt.step()
    print(f"epoch {epoch} gate {loss_gate.item():.3f} spend {loss_spend.item():.3f}")
"""


def test_the_second_loss_s_unreset_gradients_are_placed_at_its_backward(tmp_path):
    # the spend regressor never zeroes its gradients; the gate's 0/1 labels are fine,
    # though the phase's targets (both losses') range up to the log amounts
    report = planner_report(tmp_path, HURDLE)
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in confirmed] == ["missing_zero_grad"], [
        (f.category, f.evidence[0].text) for f in confirmed
    ]
    line = HURDLE.splitlines().index("        loss_spend.backward()") + 1
    assert (confirmed[0].file, confirmed[0].line) == ("train.py", line)


GAN = """\
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
ones, zeros = torch.ones(64, 1), torch.zeros(64, 1)
for it in range(300):
    angle = torch.rand(64) * 6.283
    real = torch.stack([angle.cos(), angle.sin()], 1) + 0.05 * torch.randn(64, 2)
    fake = G(torch.randn(64, 4))
    loss_d = F.binary_cross_entropy_with_logits(D(real), ones) + \\
        F.binary_cross_entropy_with_logits(D(fake.detach()), zeros)
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    loss_g = F.binary_cross_entropy_with_logits(D(fake), ones)
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    if it % 100 == 0:
        print(it, loss_d.item(), loss_g.item())
"""


def test_a_gan_s_real_and_fake_labels_on_two_lines_are_no_bad_labels(tmp_path):
    # per loss site the real labels are all 1 and the fake all 0: by design, as the
    # phase's targets (both values) show; only a range outside the loss's is read per site
    report = planner_report(tmp_path, GAN)
    assert not [f for f in report.findings if f.status == "confirmed"], [
        (f.category, f.evidence[0].text) for f in report.findings
    ]
