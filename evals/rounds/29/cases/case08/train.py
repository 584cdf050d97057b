import argparse

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

from throws import simulate


class ThrowSet(Dataset):
    def __init__(self, X, y, x_stats, y_stats):
        self.X = (torch.from_numpy(X) - x_stats[0]) / x_stats[1]
        self.y = (torch.from_numpy(y) - y_stats[0]) / y_stats[1]

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def huber(pred, target, delta=1.0):
    err = pred - target
    a = err.abs()
    quad = torch.clamp(a, max=delta)
    return (0.5 * quad ** 2 + delta * (a - quad)).mean()


def make_model(n_in):
    return nn.Sequential(nn.Linear(n_in, 64), nn.SiLU(),
                         nn.Linear(64, 64), nn.SiLU(),
                         nn.Linear(64, 1))


def r2_score(pred, target):
    ss_res = ((target - pred) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1 - (ss_res / ss_tot).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = simulate(3000, seed=args.seed)
    Xva, yva = simulate(800, seed=args.seed + 1)
    xs = (torch.from_numpy(Xtr).mean(0), torch.from_numpy(Xtr).std(0))
    ys = (float(ytr.mean()), float(ytr.std()))
    train_ds, val_ds = ThrowSet(Xtr, ytr, xs, ys), ThrowSet(Xva, yva, xs, ys)
    loader = DataLoader(train_ds, batch_size=64, shuffle=True)

    model = make_model(Xtr.shape[1])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for xb, yb in loader:
            loss = huber(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        if epoch % 10 == 0:
            print(f"epoch {epoch:3d} huber {running / len(loader):.4f}")

    model.eval()
    with torch.no_grad():
        pred_n = model(val_ds.X).squeeze(1) * ys[1] + ys[0]
    print(f"val_r2={r2_score(pred_n, torch.from_numpy(yva)):.4f}")


if __name__ == "__main__":
    main()
