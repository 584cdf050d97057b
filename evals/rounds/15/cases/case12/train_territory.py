import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F

from boards import random_positions
from net import OwnershipNet


def point_loss(logits, target):
    logp = F.log_softmax(logits, dim=1)
    return F.nll_loss(logp, target)


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    pred = model(x).argmax(dim=1)
    model.train()
    return (pred == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/small.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    xtr, ytr = random_positions(cfg["n_train"], cfg["board_size"], cfg["stone_density"], seed=cfg["seed"] + 1)
    xva, yva = random_positions(cfg["n_val"], cfg["board_size"], cfg["stone_density"], seed=4242)
    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))
    print("label share (black/white/dame):", np.bincount(ytr.flatten().numpy(), minlength=3) / ytr.numel())

    model = OwnershipNet(cfg["channels"], cfg["blocks"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    g = torch.Generator().manual_seed(cfg["seed"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(xtr), generator=g)
        tot = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            loss = point_loss(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        print(f"epoch {epoch + 1} loss {tot / len(xtr):.4f} val_acc {accuracy(model, xva, yva):.4f}")
    print(f"val_point_acc={accuracy(model, xva, yva):.4f}")


if __name__ == "__main__":
    main()
