import argparse
import json
import time

import torch
import torch.nn.functional as F

from .chem import build_dataset
from .model import ToxGNN


def roc_auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty(len(scores))
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float)
    pos = labels > 0.5
    n1, n0 = pos.sum().item(), (~pos).sum().item()
    return (ranks[pos].sum().item() - n1 * (n1 + 1) / 2) / (n1 * n0)


def set_trunk_trainable(model, flag):
    for p in model.trunk_parameters():
        p.requires_grad_(flag)


def main():
    ap = argparse.ArgumentParser(prog="moltox.train")
    ap.add_argument("--config", required=True)
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    t0 = time.time()

    d, m, o = cfg["data"], cfg["model"], cfg["optim"]
    Xtr, Atr, ytr = build_dataset(d["n_train"], d["max_atoms"], seed=d["seed"])
    Xva, Ava, yva = build_dataset(d["n_val"], d["max_atoms"], seed=d["seed"] + 1)

    model = ToxGNN(m["hidden"], m["layers"], m["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])

    set_trunk_trainable(model, False)
    for epoch in range(o["epochs"]):
        if epoch == cfg["schedule"]["unfreeze_epoch"]:
            set_trunk_trainable(model, True)
            print(f"epoch {epoch}: trunk unfrozen")
        model.train()
        perm = torch.randperm(len(ytr))
        run = 0.0
        for i in range(0, len(perm), o["batch_size"]):
            idx = perm[i : i + o["batch_size"]]
            loss = F.binary_cross_entropy_with_logits(model(Xtr[idx], Atr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            auc = roc_auc(model(Xva, Ava), yva)
        print(f"epoch {epoch:2d} loss {run / len(ytr):.4f} val_auc {auc:.4f}")

    print(f"time {time.time() - t0:.1f}s")
    print(f"val_auc={auc:.4f}")


if __name__ == "__main__":
    main()
