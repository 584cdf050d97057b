import argparse
import math

import torch
import torch.nn as nn

A, W, U0, T_END = 0.5, 3.0, 1.0, 4.0


def exact(t):
    c = U0 + W / (A ** 2 + W ** 2)
    return c * torch.exp(-A * t) + (A * torch.sin(W * t) - W * torch.cos(W * t)) / (A ** 2 + W ** 2)


class Net(nn.Module):
    def __init__(self, width=32, depth=3):
        super().__init__()
        layers, d = [], 1
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Tanh()]
            d = width
        layers.append(nn.Linear(d, 1))
        self.f = nn.Sequential(*layers)

    def forward(self, t):
        return self.f(t / T_END)  # keep the input in [0, 1]


def time_derivative(u, t):
    (du,) = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True)
    return du


def residual(model, t):
    t = t.requires_grad_(True)
    u = model(t)
    du = time_derivative(u, t)
    return du + A * u - torch.sin(W * t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--n-colloc", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--ic-weight", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1000, gamma=0.5)
    t0 = torch.zeros(1, 1)
    grid = torch.linspace(0, T_END, 500).view(-1, 1)

    for step in range(1, args.steps + 1):
        t = T_END * torch.rand(args.n_colloc, 1)
        res = residual(model, t)
        loss_pde = res.pow(2).mean()
        loss_ic = (model(t0) - U0).pow(2).mean()
        loss = loss_pde + args.ic_weight * loss_ic
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 500 == 0:
            with torch.no_grad():
                ref = exact(grid)
                err = ((model(grid) - ref).norm() / ref.norm()).item()
            print(f"step {step:5d}  pde {loss_pde.item():.2e}  ic {loss_ic.item():.2e}  rel_l2 {err:.4f}")
    print(f"rel_l2={err:.4f}")


if __name__ == "__main__":
    main()
