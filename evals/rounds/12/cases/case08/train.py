#!/usr/bin/env python
import argparse
import json
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from board import make_positions
from net import LegalityNet


def main():
    ap = argparse.ArgumentParser(description="train the move-legality classifier")
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    s = json.load(open(args.settings))
    torch.manual_seed(args.seed)
    t0 = time.time()

    Xtr, ytr = make_positions(s["n_train"], seed=args.seed)
    Xte, yte = make_positions(s["n_test"], seed=args.seed + 12345)
    dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                    batch_size=s["batch_size"], shuffle=True)
    Xte, yte = torch.from_numpy(Xte), torch.from_numpy(yte)
    print(f"positions: train={len(ytr)} test={len(yte)} legal share={ytr.mean():.2f}")

    net = LegalityNet(s["width"], s["hidden"])
    opt = torch.optim.Adam(net.parameters(), lr=s["lr"])
    for epoch in range(s["epochs"]):
        net.train()
        total = 0.0
        for xb, yb in dl:
            loss = F.binary_cross_entropy_with_logits(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        net.eval()
        with torch.no_grad():
            acc = ((net(Xte) > 0).float() == yte).float().mean().item()
        print(f"epoch {epoch + 1:2d}  bce {total / len(ytr):.4f}  test_acc {acc:.4f}")
    print(f"took {time.time() - t0:.1f}s")
    print(f"METRIC test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
