import argparse
import os

import numpy as np
import torch
import torch.nn as nn

from make_logs import N_LOTS, generate


class PickupModel(nn.Module):
    def __init__(self, n_lots, n_feats, emb=8, hidden=64):
        super().__init__()
        self.lots = nn.Embedding(n_lots, emb)
        self.dense = nn.Sequential(nn.Linear(emb + n_feats, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, lot, x):
        return self.dense(torch.cat([self.lots(lot), x], 1)).squeeze(1)  # log rate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--emb-lr", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    if not os.path.exists("logs.npz"):
        generate("logs.npz")
    d = np.load("logs.npz")
    lot, x, y = (torch.from_numpy(d[k]) for k in ("lot", "feats", "y"))
    n_val = 5000
    tr = torch.arange(n_val, len(y))

    model = PickupModel(N_LOTS, x.shape[1])
    dense_opt = torch.optim.Adam(model.dense.parameters(), lr=args.lr)
    emb_opt = torch.optim.SGD(model.lots.parameters(), lr=args.emb_lr)
    loss_fn = nn.PoissonNLLLoss(log_input=True)

    for epoch in range(args.epochs):
        model.train()
        perm = tr[torch.randperm(len(tr))]
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            dense_opt.zero_grad()
            loss = loss_fn(model(lot[b], x[b]), y[b])
            loss.backward()
            dense_opt.step()
            emb_opt.step()
        model.eval()
        with torch.no_grad():
            rate = model(lot[:n_val], x[:n_val]).exp()
            mae = (rate - y[:n_val]).abs().mean().item()
        print(f"epoch {epoch + 1} poisson_nll={loss.item():.4f} val_mae={mae:.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
