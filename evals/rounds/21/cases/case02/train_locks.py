"""Lock passage time regression with per-lock embeddings."""
import argparse
from dataclasses import dataclass
import numpy as np
import torch
import torch.nn as nn

N_LOCKS = 40


@dataclass
class Cfg:
    epochs: int = 20
    batch: int = 64
    lr: float = 3e-3
    lr_step_epochs: int = 8
    lr_gamma: float = 0.3
    emb_dim: int = 8
    seed: int = 0


def passages(n, seed):
    rng = np.random.default_rng(seed)
    base = np.random.default_rng(123).uniform(8, 30, N_LOCKS)  # each lock's chamber fill time
    lock = rng.integers(0, N_LOCKS, n)
    length = rng.uniform(6, 22, n)
    queue = rng.poisson(2, n)
    hour = rng.uniform(6, 21, n)
    summer = (rng.random(n) < 0.5).astype(np.float32)
    minutes = base[lock] * (1 + queue) * (1 + 0.2 * summer) + 0.4 * length + rng.normal(0, 2, n)
    x = np.stack([length / 22, queue / 5, np.sin(hour / 24 * 2 * np.pi), np.cos(hour / 24 * 2 * np.pi), summer], 1)
    return x.astype(np.float32), lock, np.log(minutes).astype(np.float32)


class PassageModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.lock_emb = nn.Embedding(N_LOCKS, cfg.emb_dim)
        self.net = nn.Sequential(nn.Linear(5 + cfg.emb_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x, lock):
        return self.net(torch.cat([x, self.lock_emb(lock)], 1)).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    for k, v in Cfg().__dict__.items():
        ap.add_argument(f"--{k}", type=type(v), default=v)
    cfg = Cfg(**vars(ap.parse_args()))
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    x, l, y = map(torch.from_numpy, passages(4000, 1))
    xv, lv, yv = map(torch.from_numpy, passages(1000, 2))
    model = PassageModel(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg.lr_step_epochs, gamma=cfg.lr_gamma)
    g = torch.Generator().manual_seed(cfg.seed)
    for ep in range(cfg.epochs):
        model.train()
        perm = torch.randperm(len(x), generator=g)
        for i in range(0, len(perm), cfg.batch):
            b = perm[i:i + cfg.batch]
            loss = nn.functional.mse_loss(model(x[b], l[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            mae = (model(xv, lv).exp() - yv.exp()).abs().mean().item()
        if ep % 4 == 3:
            print(f"epoch {ep+1} lr {opt.param_groups[0]['lr']:.2e} val_mae_min {mae:.2f}")
    print(f"val_mae_min={mae:.2f}")


if __name__ == "__main__":
    main()
