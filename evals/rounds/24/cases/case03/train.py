import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from scaling import NightScaler


class BeltNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, width, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 9, padding=4), nn.ReLU(),
        )
        self.head = nn.Linear(2 * width, 1)

    def forward(self, x):
        h = self.conv(x.unsqueeze(1))
        # min over time picks up the quiet stretch; mean gives the overall level
        feat = torch.cat([h.mean(-1), h.amax(-1) - h.amin(-1)], dim=1)
        return self.head(feat).squeeze(-1)


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum()
    fp = ((pred == 1) & (y == 0)).sum()
    fn = ((pred == 0) & (y == 1)).sum()
    return float(2 * tp / max(2 * tp + fp + fn, 1))


def load_split(path, val_nights):
    d = np.load(path)
    X, y, night = d["X"], d["y"], d["night"]
    val = night >= night.max() + 1 - val_nights
    return (X[~val], y[~val], night[~val]), (X[val], y[val], night[val])


def predict(model, X):
    model.eval()
    with torch.no_grad():
        return (model(torch.from_numpy(X)) > 0).long().numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="nights.npz")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--val-nights", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    (Xtr, ytr, ntr), (Xva, yva, nva) = load_split(args.data, args.val_nights)
    scaler = NightScaler().fit(Xtr)
    Xtr_s = scaler.transform(Xtr, ntr).astype(np.float32)

    model = BeltNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    xt, yt = torch.from_numpy(Xtr_s), torch.from_numpy(ytr).float()

    for epoch in range(args.epochs):
        model.train()
        perm = rng.permutation(len(xt))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(xt[b]), yt[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        train_f1 = f1_score(predict(model, Xtr_s), ytr)
        print(f"epoch {epoch:2d} loss={tot / len(perm):.4f} train_f1={train_f1:.3f}")

    Xva_s = scaler.transform(Xva).astype(np.float32)
    pred = predict(model, Xva_s)
    print(f"val_acc={(pred == yva).mean():.4f}")
    print(f"val_f1={f1_score(pred, yva):.4f}")


if __name__ == "__main__":
    main()
