import argparse
import tomllib

import numpy as np
import torch
import torch.nn as nn

from model import DayClassifier
from tills import features, simulate_logs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    seed = cfg["train"]["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)

    d = cfg["data"]
    X, y = features(*simulate_logs(d["n_days"], d["missing_rate"]), window=d["window"])
    cut = int(0.8 * len(X))  # last 20 % of days for validation
    Xtr, ytr = torch.from_numpy(X[:cut]), torch.from_numpy(y[:cut])
    Xva, yva = torch.from_numpy(X[cut:]), torch.from_numpy(y[cut:])

    t = cfg["train"]
    model = DayClassifier(X.shape[1])
    opt = torch.optim.SGD(model.parameters(), lr=t["lr"], momentum=t["momentum"])
    criterion = nn.CrossEntropyLoss()
    for epoch in range(t["epochs"]):
        model.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), t["batch_size"]):
            idx = perm[i:i + t["batch_size"]]
            probs = model.predict_proba(Xtr[idx])
            loss = criterion(probs, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model.predict_proba(Xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch + 1:2d} loss={loss.item():.4f} val_acc={acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
