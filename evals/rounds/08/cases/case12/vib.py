import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_train: int = 3000
    n_test: int = 2000
    n_signal: int = 6
    n_nuisance: int = 26
    n_classes: int = 10
    z_dim: int = 16
    hidden: int = 256
    beta: float = 1e-3
    lr: float = 1e-3
    epochs: int = 30
    batch_size: int = 100
    test_samples: int = 8
    seed: int = 0


def make_data(cfg, seed=2024):
    """Classes are clusters in a 6-d signal subspace, randomly rotated into
    32 dims together with heavy-tailed nuisance noise."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((cfg.n_classes, cfg.n_signal)) * 1.6
    rot, _ = np.linalg.qr(rng.standard_normal((cfg.n_signal + cfg.n_nuisance,) * 2))

    def draw(n):
        y = rng.integers(0, cfg.n_classes, n)
        sig = centers[y] + rng.standard_normal((n, cfg.n_signal))
        nui = rng.standard_t(3, size=(n, cfg.n_nuisance)) * 1.5
        x = np.concatenate([sig, nui], 1) @ rot
        return torch.tensor(x, dtype=torch.float32), torch.tensor(y)

    return draw(cfg.n_train), draw(cfg.n_test)


class StochasticEncoder(nn.Module):
    def __init__(self, d_in, hidden, z_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, z_dim)
        self.logvar = nn.Linear(hidden, z_dim)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), self.logvar(h).clamp(-10, 10)


class VIB(nn.Module):
    def __init__(self, d_in, n_classes, hidden, z_dim):
        super().__init__()
        self.encoder = StochasticEncoder(d_in, hidden, z_dim)
        self.decoder = nn.Linear(z_dim, n_classes)

    def forward(self, x, n_samples=1):
        mu, logvar = self.encoder(x)
        std = torch.exp(0.5 * logvar)
        eps = torch.randn((n_samples,) + mu.shape)
        z = mu + eps * std  # (S, B, K)
        return self.decoder(z), mu, logvar


def kl_to_standard_normal(mu, logvar):
    # closed form KL(N(mu, sigma^2) || N(0, 1)), summed over latent dims
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)


def vib_loss(logits, y, mu, logvar, beta):
    ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.repeat(logits.size(0)))
    kl = kl_to_standard_normal(mu, logvar).mean()
    return ce + beta * kl, ce, kl


def main():
    cfg = Config()
    ap = argparse.ArgumentParser()
    for k, v in vars(cfg).items():
        ap.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    cfg = Config(**vars(ap.parse_args()))
    torch.manual_seed(cfg.seed)

    (xtr, ytr), (xte, yte) = make_data(cfg)
    model = VIB(xtr.shape[1], cfg.n_classes, cfg.hidden, cfg.z_dim)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.97)

    for epoch in range(1, cfg.epochs + 1):
        model.train()
        perm = torch.randperm(len(ytr))
        stats = np.zeros(3)
        for i in range(0, len(perm), cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            logits, mu, logvar = model(xtr[idx])
            loss, ce, kl = vib_loss(logits, ytr[idx], mu, logvar, cfg.beta)
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats += [loss.item(), ce.item(), kl.item()]
        sched.step()
        model.eval()
        with torch.no_grad():
            logits, _, _ = model(xte, cfg.test_samples)
            acc = (logits.softmax(-1).mean(0).argmax(-1) == yte).float().mean().item()
        if epoch % 5 == 0 or epoch == 1:
            n_b = -(-len(ytr) // cfg.batch_size)
            print(f"epoch {epoch:3d} loss {stats[0] / n_b:.4f} ce {stats[1] / n_b:.4f} "
                  f"kl {stats[2] / n_b:.3f} test_acc {acc:.4f}")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
