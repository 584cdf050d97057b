import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from jars import STAGES, simulate


class OrdinalNet(nn.Module):
    def __init__(self, n_in, hidden, n_stages):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1, bias=False))
        self.thresholds = nn.Parameter(torch.linspace(-1, 1, n_stages - 1))

    def forward(self, x):
        return self.score(x) - self.thresholds      # (B, K-1) logits of P(stage > k)

    @staticmethod
    def decode(logits):
        return (logits > 0).sum(1)


def stage_levels(y, n_stages):
    """Stage s -> [1]*s + [0]*(K-1-s)."""
    ks = torch.arange(n_stages - 1)
    return (y.unsqueeze(1) > ks).float()


def ordinal_loss(logits, y):
    levels = stage_levels(y, STAGES)
    return F.binary_cross_entropy_with_logits(levels, logits)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    Xtr, ytr = simulate(cfg["n_train"], seed)
    Xva, yva = simulate(cfg["n_val"], seed + 50)
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr, Xva = torch.tensor((Xtr - mu) / sd), torch.tensor((Xva - mu) / sd)
    ytr, yva = torch.tensor(ytr), torch.tensor(yva)
    print("stage counts (train):", np.bincount(ytr.numpy(), minlength=STAGES).tolist())

    model = OrdinalNet(Xtr.shape[1], cfg["hidden"], STAGES)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            loss = ordinal_loss(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            with torch.no_grad():
                pred = OrdinalNet.decode(model(Xva))
            print(f"epoch {epoch + 1}  loss {loss.item():.4f}  val_acc {(pred == yva).float().mean():.3f}")
    with torch.no_grad():
        pred = OrdinalNet.decode(model(Xva))
    print(f"val_acc={(pred == yva).float().mean().item():.4f}")
    print(f"val_mae={(pred - yva).abs().float().mean().item():.4f}")


if __name__ == "__main__":
    main()
