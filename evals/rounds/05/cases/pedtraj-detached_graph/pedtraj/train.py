import argparse

import torch

from .losses import displacement_error, variety_loss
from .model import MultiModalPredictor
from .sim import walkers


def main():
    ap = argparse.ArgumentParser(prog="pedtraj")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    obs_tr, fut_tr = walkers(3000, seed=args.seed)
    obs_va, fut_va = walkers(600, seed=args.seed + 1)
    model = MultiModalPredictor(k=args.k)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(obs_tr))
        reg_sum = cls_sum = 0.0
        n_batches = 0
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            futures, mode_logits = model(obs_tr[idx])
            loss, reg, cls = variety_loss(futures, mode_logits, fut_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            reg_sum, cls_sum, n_batches = reg_sum + reg, cls_sum + cls, n_batches + 1
        with torch.no_grad():
            futures, _ = model(obs_va)
            min_ade = displacement_error(futures, fut_va).min(dim=1).values.mean().item()
        print(f"epoch {epoch + 1:2d} reg {reg_sum / n_batches:.4f} mode_ce {cls_sum / n_batches:.4f} val_minADE {min_ade:.3f}")
    print(f"val_minADE={min_ade:.4f}")
