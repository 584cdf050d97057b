import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def thermal_images(n, seed):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:16, 0:16]
    imgs = np.zeros((n, 1, 16, 16), dtype=np.float32)
    cracked = rng.random(n) < 0.2
    for i in range(n):
        hot = 1.0 - 0.02 * ((yy - 7.5) ** 2 + (xx - 7.5) ** 2) ** 0.5 * rng.uniform(0.5, 1.5)
        img = hot + rng.normal(0, 0.15, (16, 16))
        if cracked[i]:
            a, b = rng.uniform(-1, 1), rng.uniform(3, 12)
            line = np.abs(yy - (a * (xx - 8) + b)) < 0.7
            img = img - 0.6 * line * (rng.random((16, 16)) < 0.9)
        imgs[i, 0] = img
    return torch.from_numpy(imgs), torch.from_numpy(cracked.astype(np.float32))


class CrackNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1),
                                  nn.Flatten(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)

    def predict_proba(self, x):
        return torch.sigmoid(self(x))


def f1(prob, y):
    pred = prob > 0.5
    tp = (pred & (y == 1)).sum().item()
    fp = (pred & (y == 0)).sum().item()
    fn = (~pred & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--consistency", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    x, y = thermal_images(2000, args.seed)
    n_tr = 1600
    pos_weight = (y[:n_tr] == 0).sum() / (y[:n_tr] == 1).sum()
    model = CrackNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n_tr)
        for b in range(0, n_tr, 32):
            idx = perm[b:b + 32]
            logits = model(x[idx])
            sup = F.binary_cross_entropy_with_logits(logits, y[idx], pos_weight=pos_weight)
            # mirrored view should agree with the current prediction; target is held fixed
            flipped = model(torch.flip(x[idx], dims=[-1]))
            cons = F.mse_loss(torch.sigmoid(flipped), torch.sigmoid(logits).detach())
            loss = sup + args.consistency * cons
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            score = f1(model.predict_proba(x[n_tr:]), y[n_tr:])
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_f1 {score:.3f}")
    print(f"val_f1={score:.4f}")


if __name__ == "__main__":
    main()
