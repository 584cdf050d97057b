import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from sessions import simulate


def wrap(a):
    return torch.remainder(a + math.pi, 2 * math.pi) - math.pi


class HeelNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)

    @staticmethod
    def decode(out):
        return torch.atan2(out[:, 0], out[:, 1])


class EMA:
    def __init__(self, model, decay):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()
        self.shadow.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--ema", type=float, default=0.995)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, roll = simulate(6000, args.seed)
    Xv, rollv = simulate(1500, args.seed + 1)
    mu, sd = X.mean(0), X.std(0)
    X, Xv = torch.from_numpy((X - mu) / sd), torch.from_numpy((Xv - mu) / sd)
    roll, rollv = torch.from_numpy(roll), torch.from_numpy(rollv)
    target = torch.stack([roll.sin(), roll.cos()], 1)

    model = HeelNet(X.shape[1])
    ema = EMA(model, args.ema)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(X))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = F.mse_loss(model(X[b]), target[b])
            loss.backward()
            opt.step()
            ema.update(model)
            tot += loss.item() * len(b)
        with torch.no_grad():
            err = wrap(HeelNet.decode(ema.shadow(Xv)) - rollv).abs().mean().item()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} mse={tot / len(X):.4f} val_mae_deg={math.degrees(err):.2f}")
    print(f"val_mae_deg={math.degrees(err):.3f}")


if __name__ == "__main__":
    main()
