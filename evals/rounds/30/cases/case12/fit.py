import argparse
import numpy as np
import torch
import torch.nn as nn

from dataset import feature_matrix, read_rows, targets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rows = read_rows()
    x, y = feature_matrix(rows), targets(rows)
    n_tr = int(0.8 * len(y))
    mu, sd = x[:n_tr].mean(0), x[:n_tr].std(0)
    x = (x - mu) / sd
    xtr, ytr = torch.from_numpy(x[:n_tr]), torch.from_numpy(y[:n_tr])
    xva, yva = torch.from_numpy(x[n_tr:]), torch.from_numpy(y[n_tr:])
    net = nn.Sequential(nn.Linear(5, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for ep in range(args.epochs):
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, 128):
            b = perm[i:i + 128]
            loss = nn.functional.mse_loss(net(xtr[b]).squeeze(1), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        p = net(xva).squeeze(1)
        r2 = 1 - ((p - yva) ** 2).sum() / ((yva - yva.mean()) ** 2).sum()
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
