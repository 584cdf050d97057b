import argparse
import copy
import json

import numpy as np
import torch
import torch.nn.functional as F

from monotone import MonotoneNet


def make_data(cfg, n, rng):
    xm = rng.uniform(0, 1, size=(n, cfg["n_mono"]))
    xf = rng.normal(size=(n, cfg["n_free"]))
    y = (np.log1p(4 * xm[:, 0]) * (1.2 + 0.5 * np.tanh(xf[:, 0]))
         + 1.5 * xm[:, 1] ** 2 + 0.8 * np.sqrt(xm[:, 2]) * (xf[:, 1] > 0)
         + 0.3 * np.sin(2 * xf[:, 2]))
    y = y + cfg["noise"] * rng.normal(size=n)
    t = lambda a: torch.tensor(a, dtype=torch.float32)
    return t(xm), t(xf), t(y)


class EMA:
    def __init__(self, model, decay):
        self.decay = decay
        self.shadow = copy.deepcopy(model)
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


def monotonicity_violations(model, xm, xf):
    with torch.enable_grad():
        xm = xm.detach().clone().requires_grad_(True)
        out = model(xm, xf).sum()
        (g,) = torch.autograd.grad(out, xm)
    return (g < -1e-6).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="mono.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    xm, xf, y = make_data(cfg, cfg["n_train"], rng)
    vm, vf, vy = make_data(cfg, cfg["n_val"], rng)
    mu, sd = y.mean(), y.std()
    y, vy = (y - mu) / sd, (vy - mu) / sd

    model = MonotoneNet(cfg["n_mono"], cfg["n_free"], cfg["hidden"])
    ema = EMA(model, cfg["ema_decay"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(y))
        for i in range(0, len(y), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = F.mse_loss(model(xm[idx], xf[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip_norm"])
            opt.step()
            ema.update(model)
        sched.step()
        if epoch % 5 == 4:
            ema.shadow.eval()
            with torch.no_grad():
                rmse = F.mse_loss(ema.shadow(vm, vf), vy).sqrt().item()
            print(f"epoch {epoch+1} train_mse={loss.item():.4f} val_rmse={rmse:.4f} "
                  f"mono_violations={monotonicity_violations(ema.shadow, vm, vf):.3f}")
    ema.shadow.eval()
    with torch.no_grad():
        rmse = F.mse_loss(ema.shadow(vm, vf), vy).sqrt().item()
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
