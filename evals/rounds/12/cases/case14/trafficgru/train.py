"""python -m trafficgru.train [--epochs E] [--seed S]"""
import argparse
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

from .model import GraphGRU
from .network import adjacency, simulate, windows

SCALE = 100.0   # km/h -> O(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=24)
    ap.add_argument("--history", type=int, default=12)
    ap.add_argument("--horizon", type=int, default=3, help="steps ahead (5 min each)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    series = simulate(args.days, seed=args.seed) / SCALE
    split = int(len(series) * 0.75)
    Xtr, Ytr = windows(series[:split], args.history, args.horizon)
    Xva, Yva = windows(series[split:], args.history, args.horizon)
    dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(Ytr)),
                    batch_size=args.batch_size, shuffle=True)
    Xva, Yva = torch.from_numpy(Xva), torch.from_numpy(Yva)

    model = GraphGRU(adjacency())
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for ep in range(args.epochs):
        model.train()
        tot = 0.0
        for xb, yb in dl:
            loss = torch.nn.functional.l1_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(Xva[i:i + 512]) for i in range(0, len(Xva), 512)])
        mae = (pred - Yva).abs().mean().item() * SCALE
        persist = (Xva[:, -1] - Yva).abs().mean().item() * SCALE
        print(f"epoch {ep + 1} train_l1={tot / len(dl.dataset) * SCALE:.3f} km/h "
              f"val_mae={mae:.3f} km/h (persistence {persist:.3f})")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC val_mae_kmh={mae:.3f}")


if __name__ == "__main__":
    main()
