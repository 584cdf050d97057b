import argparse
import math
import time

import torch
from torch.utils.data import DataLoader, Dataset

from interactions import drop_repeats, simulate_log, split_log
from neumf import NeuMF


class RatingDataset(Dataset):
    def __init__(self, users, items, ratings):
        self.u = torch.as_tensor(users)
        self.i = torch.as_tensor(items)
        self.r = torch.as_tensor(ratings)

    def __len__(self):
        return len(self.r)

    def __getitem__(self, k):
        return self.u[k], self.i[k], self.r[k]


@torch.no_grad()
def rmse(model, loader):
    model.eval()
    se, n = 0.0, 0
    for u, i, r in loader:
        pred = model(u, i).clamp(1.0, 5.0)
        se += ((pred - r) ** 2).sum().item()
        n += len(r)
    return math.sqrt(se / n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=400)
    ap.add_argument("--items", type=int, default=300)
    ap.add_argument("--events", type=int, default=40000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--wd", type=float, default=1e-5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    log = drop_repeats(*simulate_log(args.users, args.items, args.events, rank=4, seed=123))
    train, val = split_log(*log, val_frac=0.15, seed=args.seed)
    print(f"{len(log[2])} unique ratings  train {len(train[2])}  val {len(val[2])}")

    g = torch.Generator().manual_seed(args.seed)
    train_dl = DataLoader(RatingDataset(*train), batch_size=args.batch_size, shuffle=True,
                          num_workers=args.workers, persistent_workers=args.workers > 0, generator=g)
    val_dl = DataLoader(RatingDataset(*val), batch_size=2048, num_workers=0)

    model = NeuMF(args.users, args.items)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.wd)
    loss_fn = torch.nn.MSELoss()
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot, n = 0.0, 0
        for u, i, r in train_dl:
            loss = loss_fn(model(u, i), r)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(r)
            n += len(r)
        print(f"epoch {epoch}  train_mse {tot / n:.4f}  val_rmse {rmse(model, val_dl):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC val_rmse={rmse(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
