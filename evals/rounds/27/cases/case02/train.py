import argparse
import time

import torch
import torch.nn.functional as F

from net import TinySeg
from tiles import N_CLASSES, make_set


def pixel_loss(logits, target):
    # flatten to (pixels, classes) for the class-balanced cross-entropy
    flat_logits = logits.reshape(-1, N_CLASSES)
    flat_target = target.reshape(-1)
    counts = torch.bincount(flat_target, minlength=N_CLASSES).float()
    weight = counts.sum() / (N_CLASSES * counts.clamp(min=1))
    return F.cross_entropy(flat_logits, flat_target, weight=weight)


def pixel_accuracy(model, X, Y):
    model.eval()
    with torch.no_grad():
        pred = model(X).argmax(1)
    model.train()
    return (pred == Y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--tiles", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--lr", type=float, default=3e-3)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, Ytr = map(torch.from_numpy, make_set(args.tiles, args.seed))
    Xva, Yva = map(torch.from_numpy, make_set(100, args.seed + 1))
    model = TinySeg()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 16):
            idx = perm[i:i + 16]
            loss = pixel_loss(model(Xtr[idx]), Ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1:2d}  loss {loss.item():.4f}  val_pixel_acc {pixel_accuracy(model, Xva, Yva):.4f}  ({time.time() - t0:.0f}s)")
    print(f"val_pixel_acc={pixel_accuracy(model, Xva, Yva):.4f}")


if __name__ == "__main__":
    main()
