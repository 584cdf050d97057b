import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import CLASSES, BaseMLP, accuracy, make_domain
from lora import inject, mark_trainable


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="adapt.json")
    ap.add_argument("--base", default="base.pt")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    torch.manual_seed(args.seed)

    model = BaseMLP()
    model.load_state_dict(torch.load(args.base))
    model.head = nn.Linear(model.head.in_features, CLASSES)   # fresh head for the target task
    inject(model, cfg["rank"], cfg["alpha"])
    n_trainable = mark_trainable(model, cfg["trainable"])
    n_total = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {n_trainable} / {n_total}")

    x, y = make_domain(seed_mix=2, n=cfg["n_target_train"], seed=30 + args.seed)
    xt, yt = make_domain(seed_mix=2, n=2000, seed=40 + args.seed)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch+1} loss={loss.item():.4f} target_acc={accuracy(model, xt, yt):.4f}")
    print(f"target_acc={accuracy(model, xt, yt):.4f}")


if __name__ == "__main__":
    main()
