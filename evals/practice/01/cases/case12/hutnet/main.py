import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from .world import make_registry, make_nights
from .model import OccupancyModel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--n-train", type=int, default=9000)
    ap.add_argument("--n-val", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    reg, pop, shift = make_registry(rng)
    tr = make_nights(args.n_train, reg, pop, shift, rng)
    va = make_nights(args.n_val, reg, pop, shift, rng)
    to_t = lambda a: torch.as_tensor(a)
    train_dl = DataLoader(TensorDataset(*map(to_t, tr)), batch_size=args.batch_size, shuffle=True)
    hut_v, ctx_v, y_v = map(to_t, va)

    model = OccupancyModel(reg, n_ctx=tr[1].shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for hut, ctx, y in train_dl:
            loss = F.mse_loss(model(hut, ctx), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        model.eval()
        with torch.no_grad():
            mae = (model(hut_v, ctx_v) - y_v).abs().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d} train_mse {tot / len(tr[2]):.5f} val_mae {mae:.4f}")
    print(f"baseline (predict train mean) mae {(y_v - tr[2].mean()).abs().mean().item():.4f}; "
          f"{time.time() - t0:.1f}s")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
