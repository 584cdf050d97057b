import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

from model import SneezeCNN
from signals import simulate_sessions, standardize


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--out", default="artifacts/model.pt")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    X, y, sess = simulate_sessions(n_sessions=40, windows_per_session=60, seed=args.seed)
    X = standardize(X, sessions=sess)
    X, y = torch.from_numpy(X), torch.from_numpy(y)

    model = SneezeCNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(X))
        running, correct = 0.0, 0
        for i in range(0, len(X), args.batch_size):
            idx = perm[i:i + args.batch_size]
            logits = model(X[idx])
            loss = F.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(idx)
            correct += (logits.argmax(1) == y[idx]).sum().item()
        print(f"epoch {epoch:2d}  loss {running / len(X):.4f}  train_acc {correct / len(X):.3f}")

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    torch.save({"state_dict": model.state_dict(), "seed": args.seed}, args.out)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
