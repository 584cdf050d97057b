import argparse
import json

import torch
import torch.nn.functional as F

from hexboard import planes, random_positions
from net import ValueNet


def param_groups(model, base_lr, lr_mult):
    """One optimizer group per top-level module, each with its own lr multiplier."""
    return [{"params": getattr(model, name).parameters(), "lr": base_lr * mult, "name": name}
            for name, mult in lr_mult.items()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="hex.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    btr, ytr = random_positions(cfg["n_train"], cfg["size"], seed)
    bva, yva = random_positions(cfg["n_val"], cfg["size"], seed + 10)
    Xtr, Xva = torch.from_numpy(planes(btr)), torch.from_numpy(planes(bva))
    ytr, yva = torch.from_numpy(ytr), torch.from_numpy(yva)
    print(f"black wins in {ytr.mean():.3f} of training positions")

    model = ValueNet(cfg["size"], cfg["channels"], cfg["blocks"])
    opt = torch.optim.Adam(param_groups(model, cfg["lr"], cfg["lr_mult"]), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg["batch_size"]):
            j = perm[i:i + cfg["batch_size"]]
            loss = F.binary_cross_entropy_with_logits(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = ((model(Xva) > 0).float() == yva).float().mean().item()
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
