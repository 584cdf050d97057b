import argparse

import numpy as np
import torch
import torch.nn as nn

from shapes import shape_sdf, surface_samples


class SDFNet(nn.Module):
    def __init__(self, hidden=128, depth=4):
        super().__init__()
        layers, d = [], 2
        for _ in range(depth):
            layers += [nn.Linear(d, hidden), nn.Softplus(beta=100)]
            d = hidden
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, p):
        return self.net(p).squeeze(-1)


def gradient(y, x):
    """d y / d x for a batch of scalar outputs."""
    (g,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), retain_graph=True)
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--n-surface", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--w-normal", type=float, default=1.0)
    ap.add_argument("--w-eik", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    pts, normals = surface_samples(args.n_surface, rng)
    print(f"surface points: {len(pts)}")
    model = SDFNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=400, gamma=0.5)

    for step in range(args.steps):
        idx = torch.from_numpy(rng.integers(0, len(pts), args.batch))
        p = pts[idx].clone().requires_grad_(True)
        n = normals[idx]
        # off-surface samples: jittered surface points plus uniform points in the box
        q = torch.cat([pts[idx] + 0.1 * torch.randn_like(pts[idx]),
                       torch.rand(args.batch, 2) * 2.4 - 1.2]).requires_grad_(True)

        f_p = model(p)
        g_p = gradient(f_p, p)
        g_q = gradient(model(q), q)

        l_surf = f_p.abs().mean()
        l_norm = (g_p - n).norm(dim=-1).mean()
        l_eik = ((g_q.norm(dim=-1) - 1.0) ** 2).mean()
        loss = l_surf + args.w_normal * l_norm + args.w_eik * l_eik

        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 300 == 0:
            print(f"step {step} surf={l_surf.item():.4f} normal={l_norm.item():.4f} eik={l_eik.item():.4f}")

    xs = torch.linspace(-1, 1, 64)
    grid = torch.stack(torch.meshgrid(xs, xs, indexing="ij"), -1).reshape(-1, 2)
    with torch.no_grad():
        mae = (model(grid) - shape_sdf(grid)).abs().mean().item()
    print(f"grid_mae={mae:.4f}")


if __name__ == "__main__":
    main()
