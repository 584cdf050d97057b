"""python -m cuisine.train : fit the cuisine classifier on synthetic recipes."""
import argparse
import copy
import time

import numpy as np
import torch
from torch import nn

from .data import CUISINES, make_recipes, ppmi_svd_embeddings
from .model import CuisineClassifier


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-train", type=int, default=3000)
    ap.add_argument("--n-val", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--max-grad-norm", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for pe, p in zip(ema_model.parameters(), model.parameters()):
        pe.mul_(decay).add_(p.detach(), alpha=1 - decay)


@torch.no_grad()
def accuracy(model, X, y):
    model.eval()
    acc = (model(X).argmax(dim=1) == y).float().mean().item()
    return acc


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()
    X, y = make_recipes(args.n_train + args.n_val, seed=args.seed)
    Xtr, ytr = torch.from_numpy(X[:args.n_train]), torch.from_numpy(y[:args.n_train])
    Xva, yva = torch.from_numpy(X[args.n_train:]), torch.from_numpy(y[args.n_train:])
    vectors = ppmi_svd_embeddings(X[:args.n_train], dim=32)

    model = CuisineClassifier(vectors, len(CUISINES))
    ema_model = copy.deepcopy(model)
    for p in ema_model.parameters():
        p.requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=args.lr)
    nll = nn.NLLLoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        losses, norms = [], []
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            log_probs = model(Xtr[idx])
            loss = nll(log_probs, ytr[idx])
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(trainable, args.max_grad_norm).item())
            opt.step()
            ema_update(ema_model, model, args.ema)
            losses.append(loss.item())
        print(f"epoch {epoch + 1:2d} nll={np.mean(losses):.4f} grad_norm(max)={max(norms):.2f} "
              f"val_acc={accuracy(model, Xva, yva):.4f} ema_val_acc={accuracy(ema_model, Xva, yva):.4f}")

    final = accuracy(ema_model, Xva, yva)
    print(f"elapsed={time.time() - t0:.1f}s")
    print(f"METRIC val_acc={final:.4f}")


if __name__ == "__main__":
    main()
