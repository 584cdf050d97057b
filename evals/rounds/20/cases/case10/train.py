import argparse

import numpy as np
import torch
import torch.nn as nn

from features import read_logs, shop_features


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", default="data/logs.csv")
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr, Xva, yva = [], [], [], []
    for shop, rows in read_logs(args.logs).items():
        X, y, day = shop_features(rows)
        cut = day.max() - 90
        Xtr.append(X[day <= cut]); ytr.append(y[day <= cut])
        Xva.append(X[day > cut]); yva.append(y[day > cut])
    Xtr, ytr = torch.tensor(np.concatenate(Xtr), dtype=torch.float32), torch.tensor(np.concatenate(ytr), dtype=torch.float32)
    Xva, yva = torch.tensor(np.concatenate(Xva), dtype=torch.float32), np.concatenate(yva)
    print(f"train {len(Xtr)} days, val {len(Xva)} days, sell-out rate {ytr.mean():.2f}")

    model = nn.Sequential(nn.Linear(Xtr.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    lossf = nn.BCEWithLogitsLoss()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            j = perm[i:i + 64]
            loss = lossf(model(Xtr[j]).squeeze(1), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()

    with torch.no_grad():
        s = model(Xva).squeeze(1).numpy()
    print(f"val_acc={((s > 0) == (yva == 1)).mean():.4f}")
    print(f"val_auc={auc(s, yva):.4f}")


if __name__ == "__main__":
    main()
