import argparse
import time

import torch
import torch.nn as nn

from loans import N_BORROWERS, N_DENSE, make_loans


class DelayModel(nn.Module):
    def __init__(self, emb_dim=16, hidden=64):
        super().__init__()
        self.borrower = nn.Embedding(N_BORROWERS, emb_dim, sparse=True)
        nn.init.normal_(self.borrower.weight, std=0.1)
        self.tower = nn.Sequential(
            nn.Linear(emb_dim + N_DENSE, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def dense_parameters(self):
        return self.tower.parameters()

    def forward(self, borrower, dense):
        return self.tower(torch.cat([self.borrower(borrower), dense], dim=1)).squeeze(1)


def mae(model, b, d, y):
    model.eval()
    with torch.no_grad():
        out = (model(b, d) - y).abs().mean().item()
    model.train()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr-sparse", type=float, default=0.02)
    ap.add_argument("--lr-dense", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    b, d, y = make_loans(60000, seed=1)
    vb, vd, vy = make_loans(8000, seed=2)
    print(f"baseline (predict train mean) mae={((vy - y.mean()).abs().mean()):.3f}")

    model = DelayModel()
    opt_emb = torch.optim.SparseAdam(list(model.borrower.parameters()), lr=args.lr_sparse)
    opt_dense = torch.optim.Adam(model.dense_parameters(), lr=args.lr_dense)
    loss_fn = nn.HuberLoss(delta=2.0)

    n = len(y)
    for epoch in range(args.epochs):
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, args.batch_size):
            idx = perm[i : i + args.batch_size]
            opt_emb.zero_grad()
            loss = loss_fn(model(b[idx], d[idx]), y[idx])
            loss.backward()
            opt_emb.step()
            opt_dense.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch} train_loss {total / n:.4f} val_mae {mae(model, vb, vd, vy):.3f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_mae_days={mae(model, vb, vd, vy):.4f}")


if __name__ == "__main__":
    main()
