import argparse
import dataclasses

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from config import Config
from losses import soft_bootstrap_bce


def make_data(cfg, rng):
    w1 = rng.normal(size=(cfg.dim,))
    w2 = rng.normal(size=(cfg.dim,))

    def sample(n):
        x = rng.normal(size=(n, cfg.dim))
        score = x @ w1 + 0.8 * np.sin(x @ w2) * np.abs(x[:, 0])
        return x.astype(np.float32), (score > 0).astype(np.float32)

    xtr, ytr = sample(cfg.n_train)
    flip = rng.random(cfg.n_train) < cfg.flip_rate
    ytr_noisy = np.where(flip, 1.0 - ytr, ytr).astype(np.float32)
    xva, yva = sample(cfg.n_val)
    return xtr, ytr_noisy, xva, yva


class Net(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Dropout(0.1),
                               nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)


def parse():
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(Config):
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    return Config(**vars(ap.parse_args()))


def main():
    cfg = parse()
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    xtr, ytr, xva, yva = map(torch.from_numpy, make_data(cfg, rng))
    print(f"train noisy-positive rate {ytr.mean():.3f}")

    model = Net(cfg.dim, cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        tot = 0.0
        for i in range(0, len(xtr), cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            logits = model(xtr[idx])
            if epoch < cfg.warmup_epochs:
                loss = F.binary_cross_entropy_with_logits(logits, ytr[idx])
            else:
                loss = soft_bootstrap_bce(ytr[idx], logits, cfg.beta)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            acc = ((model(xva) > 0).float() == yva).float().mean().item()
        if epoch % 5 == 4:
            print(f"epoch {epoch+1} loss={tot/len(xtr):.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
