import argparse

import numpy as np
import torch
import torch.nn as nn

from citysim import N_HOODS, simulate


class DemandModel(nn.Module):
    def __init__(self, n_hoods, emb_dim=8, hidden=64):
        super().__init__()
        self.hood = nn.Embedding(n_hoods, emb_dim)
        self.tower = nn.Sequential(nn.Linear(emb_dim + 6, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, hood, ctx):
        return self.tower(torch.cat([self.hood(hood), ctx], dim=1)).squeeze(-1)


def context_features(rows):
    h, d, temp, rain = rows[:, 1], rows[:, 2], rows[:, 3], rows[:, 4]
    return np.column_stack([np.sin(2 * np.pi * h / 24), np.cos(2 * np.pi * h / 24),
                            (d >= 5).astype(float), (temp - 15) / 8, rain,
                            ((h >= 2) & (h <= 6)).astype(float)]).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    rows = simulate(30, seed=args.seed)
    train_rows, val_rows = rows[rows[:, 5] < 24], rows[rows[:, 5] >= 24]
    def tensors(r):
        return (torch.from_numpy(r[:, 0].astype(np.int64)), torch.from_numpy(context_features(r)),
                torch.from_numpy(np.log1p(r[:, 6]).astype(np.float32)))
    hood_tr, ctx_tr, y_tr = tensors(train_rows)
    hood_va, ctx_va, y_va = tensors(val_rows)

    model = DemandModel(N_HOODS)
    dense_opt = torch.optim.AdamW(model.tower.parameters(), lr=2e-3, weight_decay=1e-4)
    emb_opt = torch.optim.SGD(model.hood.parameters(), lr=0.5, momentum=0.9)

    n = len(y_tr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n)
        for i in range(0, n, args.batch_size):
            idx = perm[i:i + args.batch_size]
            pred = model(hood_tr[idx], ctx_tr[idx])
            loss = nn.functional.mse_loss(pred, y_tr[idx])
            dense_opt.zero_grad()
            loss.backward()
            dense_opt.step()
            emb_opt.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} mse {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(hood_va, ctx_va)
    r2 = 1 - ((pred - y_va) ** 2).sum() / ((y_va - y_va.mean()) ** 2).sum()
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
