import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from reviews import make_reviews
from textprep import bag_of_words, featurize


class StarRegressor(nn.Module):
    def __init__(self, vocab_size, hidden, dropout):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(vocab_size, hidden), nn.Tanh(), nn.Dropout(dropout))
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        # centre on 3 stars so the head starts from a sensible guess
        return 3.0 + self.out(self.body(x)).squeeze(-1)


def rmse(model, X, y):
    model.eval()
    with torch.no_grad():
        pred = model(X).clamp(1, 5)
    model.train()
    return torch.sqrt(((pred - y) ** 2).mean()).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/stars.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    d = cfg["data"]
    tr_texts, tr_y = make_reviews(d["n_train"], seed=d["seed"] + seed)
    va_texts, va_y = make_reviews(d["n_val"], seed=d["seed"] + 1000)

    X_tr, vocab = featurize(tr_texts, cfg["vocab"])
    X_va, _ = featurize(va_texts, cfg["vocab"])
    print(f"vocab size {len(vocab)}; train {X_tr.shape} val {X_va.shape}")

    X_tr, X_va = torch.from_numpy(X_tr), torch.from_numpy(X_va)
    y_tr, y_va = torch.from_numpy(tr_y), torch.from_numpy(va_y)
    print(f"predict-the-mean rmse: {torch.sqrt(((y_va - y_tr.mean()) ** 2).mean()).item():.3f}")

    m, o = cfg["model"], cfg["optim"]
    model = StarRegressor(X_tr.shape[1], m["hidden"], m["dropout"])
    opt = torch.optim.Adam(model.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])
    for epoch in range(o["epochs"]):
        perm = torch.randperm(len(X_tr))
        for i in range(0, len(perm), o["batch_size"]):
            idx = perm[i:i + o["batch_size"]]
            loss = ((model(X_tr[idx]) - y_tr[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1:2d} loss {loss.item():.4f} val_rmse {rmse(model, X_va, y_va):.4f}")

    print(f"val_rmse={rmse(model, X_va, y_va):.4f}")


if __name__ == "__main__":
    main()
