import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

import data
from nam import NAM


def auc_score(y, s):
    order = np.argsort(s)
    ranks = np.empty(len(s))
    ranks[order] = np.arange(1, len(s) + 1)
    pos = y == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", default="data/applications.csv")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--output-penalty", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dump-shapes", action="store_true")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    if not os.path.exists(args.csv):
        data.generate(args.csv)
    X, y, names = data.load(args.csv)
    (Xtr, ytr), (Xva, yva) = data.split(X, y, seed=args.seed)
    n_before = len(ytr)
    Xtr, ytr = data.drop_duplicate_rows(Xtr, ytr)
    print(f"train rows {n_before} -> {len(ytr)} after de-duplication, val rows {len(yva)}")

    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr_t = torch.from_numpy((Xtr - mu) / sd)
    Xva_t = torch.from_numpy((Xva - mu) / sd)
    ytr_t = torch.from_numpy(ytr).float()

    model = NAM(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(ytr_t))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            logit, contrib = model(Xtr_t[idx])
            loss = F.binary_cross_entropy_with_logits(logit, ytr_t[idx])
            loss = loss + args.output_penalty * contrib.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        sched.step()
        model.eval()
        with torch.no_grad():
            s = model(Xva_t)[0].numpy()
        auc = auc_score(yva, s)
        acc = ((s > 0).astype(int) == yva).mean()
        if epoch % 5 == 0 or epoch == 1:
            print(f"epoch {epoch:3d} train_loss {tot / len(ytr_t):.4f} val_auc {auc:.4f} val_acc {acc:.4f}")

    if args.dump_shapes:
        grid = torch.linspace(-2, 2, 9)
        with torch.no_grad():
            c = model.features(grid[:, None].repeat(1, X.shape[1]))
        for j, n in enumerate(names):
            print(n, " ".join(f"{v:+.2f}" for v in c[:, j].tolist()))
    print(f"val_acc={acc:.4f}")
    print(f"val_auc={auc:.4f}")


if __name__ == "__main__":
    main()
