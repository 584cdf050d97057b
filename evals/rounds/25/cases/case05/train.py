import argparse

import numpy as np
import torch
import torch.nn as nn

from data import N_PLAZAS, make_sales


class StandModel(nn.Module):
    def __init__(self, n_dense, emb_dim=8, hidden=48):
        super().__init__()
        self.plaza = nn.Embedding(N_PLAZAS, emb_dim, sparse=True)
        self.mlp = nn.Sequential(nn.Linear(n_dense + emb_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, plaza, dense):
        return self.mlp(torch.cat([self.plaza(plaza), dense], 1)).squeeze(1)   # log sales


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--days", type=int, default=400)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    day, plaza, dense, sales = make_sales(args.days, np.random.default_rng(17))
    tr = torch.from_numpy(day < args.days * 0.8)
    va = ~tr
    log_sales = torch.log(sales)
    mu = log_sales[tr].mean()

    model = StandModel(dense.shape[1])
    opt_sparse = torch.optim.SparseAdam(model.plaza.parameters(), lr=1e-2)
    dense_params = [p for n, p in model.named_parameters() if not n.startswith("plaza.")]
    opt_dense = torch.optim.AdamW(dense_params, lr=2e-3, weight_decay=1e-4)

    idx_tr = tr.nonzero().squeeze(1)
    for epoch in range(args.epochs):
        model.train()
        perm = idx_tr[torch.randperm(len(idx_tr))]
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            pred = model(plaza[b], dense[b]) + mu
            loss = nn.functional.mse_loss(pred, log_sales[b])
            loss.backward()
            opt_sparse.step()
            opt_sparse.zero_grad()
            opt_dense.zero_grad()
            opt_dense.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            p = torch.exp(model(plaza[va], dense[va]) + mu)
            mape = ((p - sales[va]).abs() / sales[va]).mean().item() * 100
        print(f"epoch {epoch + 1:2d}  train_mse {tot / len(perm):.4f}  val_mape {mape:.2f}")
    print(f"val_mape={mape:.3f}")


if __name__ == "__main__":
    main()
