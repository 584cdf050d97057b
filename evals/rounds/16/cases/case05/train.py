import argparse
import json

import torch
import torch.nn.functional as F

from data import make_pairs
from model import StepScorer


def accuracy(model, a, b, y):
    model.eval()
    with torch.no_grad():
        return ((model(a, b) > 0).float() == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    a, b, y = make_pairs(cfg["n_train"], cfg["word_len"], seed=cfg["seed"])
    va, vb, vy = make_pairs(cfg["n_val"], cfg["word_len"], seed=cfg["seed"] + 99)
    model = StepScorer(cfg["word_len"], cfg["emb_dim"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(y))
        tot = 0.0
        for i in range(0, len(y), bs):
            idx = perm[i:i + bs]
            loss = F.binary_cross_entropy_with_logits(model(a[idx], b[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        print(f"epoch {epoch + 1:2d} loss {tot / len(y):.4f} val_acc {accuracy(model, va, vb, vy):.3f}")

    print(f"val_acc={accuracy(model, va, vb, vy):.4f}")


if __name__ == "__main__":
    main()
