import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def telemetry(n, rng, states, mix):
    y = rng.integers(0, len(states), n)
    load = rng.uniform(0.5, 1.5, n)[:, None]
    h = states[y] * load + 0.5 * rng.normal(size=(n, states.shape[1]))
    return np.tanh(h @ mix).astype(np.float32) + 0.1 * rng.normal(size=(n, mix.shape[1])).astype(np.float32), y


def random_view(x, drop, jitter, gain):
    keep = (torch.rand_like(x) > drop).float()
    g = 1 + gain * torch.randn(1, x.shape[1])
    return (x * keep) * g + jitter * torch.randn_like(x)


class Encoder(nn.Module):
    def __init__(self, d, hidden, rep):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, rep))

    def forward(self, x):
        return self.net(x)


class BarlowTwins(nn.Module):
    def __init__(self, encoder, rep, proj, lam):
        super().__init__()
        self.encoder = encoder
        self.projector = nn.Sequential(nn.Linear(rep, proj), nn.BatchNorm1d(proj), nn.ReLU(), nn.Linear(proj, proj))
        self.bn = nn.BatchNorm1d(proj, affine=False)   # plain standardisation of each projection dim
        self.lam = lam

    def forward(self, v1, v2):
        z1 = self.bn(self.projector(self.encoder(v1)))
        z2 = self.bn(self.projector(self.encoder(v2)))
        c = z1.T @ z2 / z1.shape[0]
        on_diag = (torch.diagonal(c) - 1).pow(2).sum()
        off = c - torch.diag_embed(torch.diagonal(c))
        return on_diag + self.lam * off.pow(2).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="barlow.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(3)
    states, mix = rng.normal(size=(8, 12)), rng.normal(size=(12, cfg["dim"])) / np.sqrt(12)
    xu, _ = telemetry(cfg["n_unlabelled"], rng, states, mix)
    xp, yp = telemetry(cfg["n_probe_train"], rng, states, mix)
    xt, yt = telemetry(cfg["n_test"], rng, states, mix)
    xu, xp, yp, xt, yt = map(torch.from_numpy, (xu, xp, yp, xt, yt))

    enc = Encoder(cfg["dim"], cfg["hidden"], cfg["rep_dim"])
    bt = BarlowTwins(enc, cfg["rep_dim"], cfg["proj_dim"], cfg["lambda_offdiag"])
    opt = torch.optim.Adam(bt.parameters(), lr=cfg["lr"], weight_decay=1e-5)
    v = cfg["view"]
    t0 = time.time()
    for epoch in range(cfg["pretrain_epochs"]):
        bt.train()
        perm = torch.randperm(len(xu))
        for i in range(0, len(perm) - cfg["batch_size"] + 1, cfg["batch_size"]):
            xb = xu[perm[i:i + cfg["batch_size"]]]
            loss = bt(random_view(xb, **v), random_view(xb, **v))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"pretrain epoch {epoch:2d}  barlow_loss {loss.item():.3f}")

    # linear probe: encoder fixed, only the linear layer learns
    enc.eval()
    enc.requires_grad_(False)
    with torch.no_grad():
        fp, ft = enc(xp), enc(xt)
    mu, sd = fp.mean(0), fp.std(0) + 1e-6
    probe = nn.Linear(cfg["rep_dim"], 8)
    popt = torch.optim.Adam(probe.parameters(), lr=cfg["probe_lr"])
    for _ in range(cfg["probe_epochs"]):
        logp = F.log_softmax(probe((fp - mu) / sd), dim=1)
        ploss = F.nll_loss(logp, yp)
        popt.zero_grad()
        ploss.backward()
        popt.step()
    with torch.no_grad():
        acc = (probe((ft - mu) / sd).argmax(1) == yt).float().mean().item()
    print(f"probe loss {ploss.item():.4f}  ({time.time() - t0:.1f}s)")
    print(f"METRIC probe_acc={acc:.4f}")


if __name__ == "__main__":
    main()
