import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CENTERS = torch.tensor([[math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)] for k in range(8)]) * 2.0
SIGMA = 0.08


def sample_data(n, gen):
    idx = torch.randint(0, 8, (n,), generator=gen)
    return CENTERS[idx] + SIGMA * torch.randn(n, 2, generator=gen)


def timestep_embedding(t, dim=32):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    ang = t.float().unsqueeze(-1) * freqs
    return torch.cat([ang.sin(), ang.cos()], -1)


class EpsNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.t_proj = nn.Sequential(nn.Linear(32, hidden), nn.SiLU())
        self.inp = nn.Linear(2, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        return self.out(self.body(self.inp(x) + self.t_proj(timestep_embedding(t))))


class Schedule:
    def __init__(self, T=100):
        self.T = T
        self.betas = torch.linspace(1e-4, 0.05, T)
        self.alphas = 1 - self.betas
        self.abar = torch.cumprod(self.alphas, 0)

    def q_sample(self, x0, t, noise):
        a = self.abar[t].unsqueeze(-1)
        return a.sqrt() * x0 + (1 - a).sqrt() * noise

    @torch.no_grad()
    def sample(self, model, n, gen):
        x = torch.randn(n, 2, generator=gen)
        for t in reversed(range(self.T)):
            tt = torch.full((n,), t, dtype=torch.long)
            eps = model(x, tt)
            mean = (x - self.betas[t] / (1 - self.abar[t]).sqrt() * eps) / self.alphas[t].sqrt()
            x = mean + (self.betas[t].sqrt() * torch.randn(n, 2, generator=gen) if t > 0 else 0)
        return x


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--ema", type=float, default=0.995)
    ap.add_argument("--max-grad-norm", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    sched = Schedule()
    model = EpsNet()
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    running = None
    for step in range(1, args.steps + 1):
        x0 = sample_data(args.batch, gen)
        t = torch.randint(0, sched.T, (args.batch,), generator=gen)
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(sched.q_sample(x0, t, noise), t), noise)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        opt.step()
        ema_update(ema, model, args.ema)
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if step % 500 == 0:
            print(f"step {step:5d} loss {running:.4f} grad_norm {gnorm.item():.3f}")

    xs = sched.sample(ema, 2000, gen)
    d = torch.cdist(xs, CENTERS)
    nearest = d.argmin(1)
    close = d.min(1).values < 3 * SIGMA
    precision = close.float().mean().item()
    share = torch.bincount(nearest[close], minlength=8).float() / len(xs)
    modes = int((share > 0.02).sum())
    print(f"mode_precision={precision:.4f} modes={modes}")


if __name__ == "__main__":
    main()
