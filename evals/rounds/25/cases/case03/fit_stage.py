import argparse

import numpy as np
import torch
import torch.nn as nn

from batches import N_STAGES, simulate


class CumulativeHead(nn.Module):
    """Shared score f(x) plus K-1 ordered thresholds -> cumulative logits."""

    def __init__(self, n_in, hidden=32):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.cuts = nn.Parameter(torch.linspace(-2, 2, N_STAGES - 1))

    def forward(self, x):
        return self.score(x) - self.cuts          # [B, K-1] logits of P(stage > k)

    def predict_proba(self, x):
        p_gt = torch.sigmoid(self(x))
        ones = torch.ones_like(p_gt[:, :1])
        zeros = torch.zeros_like(p_gt[:, :1])
        cum = torch.cat([ones, p_gt, zeros], 1)
        return (cum[:, :-1] - cum[:, 1:]).clamp_min(0)


def cumulative_targets(stage0):
    """stage0 in 0..K-1 -> [B, K-1] with 1 where stage0 > k."""
    k = torch.arange(N_STAGES - 1)
    return (stage0.unsqueeze(1) > k).float()


class EvalEvery:
    """Callback: evaluate every n epochs (puts the model in eval mode)."""

    def __init__(self, every, x, y):
        self.every, self.x, self.y = every, x, y
        self.last = None

    def __call__(self, epoch, model):
        if epoch % self.every:
            return
        model.eval()
        with torch.no_grad():
            pred = model.predict_proba(self.x).argmax(1)
        self.last = (pred - self.y).abs().float().mean().item()
        print(f"  epoch {epoch}: val_mae_stage {self.last:.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    rng = np.random.default_rng(4)
    xtr, str_ = simulate(3000, rng)
    xva, sva = simulate(800, rng)
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr = torch.from_numpy((xtr - mu) / sd)
    xva = torch.from_numpy((xva - mu) / sd)
    ytr = torch.from_numpy(str_) - 1              # sheets count from 1
    yva = torch.from_numpy(sva) - 1

    model = CumulativeHead(xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    bce = nn.BCEWithLogitsLoss()
    callback = EvalEvery(10, xva, yva)
    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            loss = bce(model(xtr[b]), cumulative_targets(ytr[b]))
            opt.zero_grad()
            loss.backward()
            opt.step()
        callback(epoch, model)
    callback(0, model)
    print(f"val_mae_stage={callback.last:.4f}")


if __name__ == "__main__":
    main()
