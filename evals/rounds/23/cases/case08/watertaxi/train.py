import argparse

import torch
import torch.nn.functional as F

from .logs import N_PIERS, simulate_trips
from .model import CrossingModel


def main():
    ap = argparse.ArgumentParser(prog="python -m watertaxi.train")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    tr = [torch.from_numpy(a) for a in simulate_trips(8000, seed=1)]
    va = [torch.from_numpy(a) for a in simulate_trips(2000, seed=2)]
    y_mu, y_sd = tr[3].mean(), tr[3].std()

    model = CrossingModel(N_PIERS, tr[2].shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(tr[3]))
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            pred = model(tr[0][idx], tr[1][idx], tr[2][idx])
            loss = F.smooth_l1_loss(pred, (tr[3][idx] - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pv = model(va[0], va[1], va[2]) * y_sd + y_mu
            mae = (pv - va[3]).abs().mean().item()
        print(f"epoch {epoch + 1:2d} loss={loss.item():.4f} val_mae_min={mae:.3f}")
    print(f"val_mae_min={mae:.3f}")


if __name__ == "__main__":
    main()
