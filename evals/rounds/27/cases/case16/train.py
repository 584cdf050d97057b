import argparse
import copy
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from board import random_games


class ValueNet(nn.Module):
    def __init__(self, size, ch):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(2, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(ch * size * size, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        return F.log_softmax(self.head(self.body(x)), dim=-1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(p, alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="hex.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    Xtr, ytr = map(torch.from_numpy, random_games(cfg["n_train"], cfg["size"], seed))
    Xva, yva = map(torch.from_numpy, random_games(cfg["n_val"], cfg["size"], seed + 1))
    print(f"red wins {ytr.eq(0).float().mean():.3f} of training boards")

    model = ValueNet(cfg["size"], cfg["channels"])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    nll = nn.NLLLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            xb, yb = Xtr[idx], ytr[idx]
            # the board is symmetric under a 180 degree rotation (sides keep their goals)
            flip = torch.rand(len(xb)) < 0.5
            xb = torch.where(flip[:, None, None, None], xb.flip(-1, -2), xb)
            loss = nll(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, cfg["ema_decay"])
        with torch.no_grad():
            acc = (ema(Xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch + 1}  loss {loss.item():.4f}  ema val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
