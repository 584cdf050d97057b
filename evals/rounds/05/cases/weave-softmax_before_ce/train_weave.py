import argparse

import numpy as np
import torch

from augment import cutmix, mixup, one_hot, soft_cross_entropy
from net import WeaveNet
from weaves import N_CLASSES, make_split


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--aug", default="mixup,cutmix")
    ap.add_argument("--alpha", type=float, default=0.4)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    augs = {"mixup": mixup, "cutmix": cutmix}
    chosen = [augs[a] for a in args.aug.split(",") if a]

    x_tr, y_tr = make_split(150, seed=args.seed)
    x_te, y_te = make_split(50, seed=args.seed + 1000)
    net = WeaveNet(N_CLASSES)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(x_tr))
        seen = correct = 0
        for i in range(0, len(perm), args.bs):
            idx = perm[i:i + args.bs]
            xb, yb = x_tr[idx], one_hot(y_tr[idx], N_CLASSES)
            if chosen:
                xb, yb = chosen[rng.integers(len(chosen))](xb, yb, args.alpha, rng)
            probs = net.predict_proba(xb)
            loss = soft_cross_entropy(probs, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (probs.argmax(1) == yb.argmax(1)).sum().item()
            seen += len(idx)
        net.eval()
        with torch.no_grad():
            acc = (net(x_te).argmax(1) == y_te).float().mean().item()
        print(f"epoch {epoch + 1:2d}  loss {loss.item():.3f}  train_acc {correct / seen:.3f}  test_acc {acc:.3f}")

    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
