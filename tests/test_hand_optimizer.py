"""A hand-written optimizer over non-leaf copies of the weights (`torch.tensor(w,
requires_grad=True).float()`): the copies never change, the originals' gradients pile
up untouched. The root cause is the non-leaf parameter; the piled-up gradients, which
zeroing does not change, and a call order without any optimizer step are no defects of
their own."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2048, 4)
y = (x @ torch.tensor([1.0, -2.0, 0.5, 1.5])).unsqueeze(1)


class Net:
    def __init__(self):
        w = torch.randn(4, 16).tolist()
        self.w1 = torch.tensor(w, dtype=torch.float64, requires_grad=True).float()
        self.b1 = torch.zeros(16, requires_grad=True)
        self.w2 = torch.zeros(16, 1, requires_grad=True)

    def parameters(self):
        return [self.w1, self.b1, self.w2]

    def __call__(self, x):
        return torch.tanh(x @ self.w1 + self.b1) @ self.w2


class HeavyBall:
    def __init__(self, params, lr):
        self.params, self.lr, self.buf = list(params), lr, [None] * len(list(params))

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for k, p in enumerate(self.params):
            if p.grad is None:
                continue
            self.buf[k] = p.grad.clone() if self.buf[k] is None else 0.9 * self.buf[k] + p.grad
            p.sub_(self.lr * self.buf[k])


net = Net()
opt = HeavyBall(net.parameters(), lr=0.01)
for step in range(300):
    i = torch.randint(0, 2048, (64,))
    loss = F.mse_loss(net(x[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_the_non_leaf_copy_is_the_one_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    confirmed = [f.category for f in report.findings if f.status == "confirmed"]
    assert "non_leaf_parameters" in confirmed, report.findings
    assert not {"step_order", "missing_zero_grad"} & set(confirmed), report.findings
