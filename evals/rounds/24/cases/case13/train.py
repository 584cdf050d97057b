import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from pipes import survey


def build_mlp(n_in, hidden):
    layers, d = [], n_in
    for h in hidden:
        layers += [nn.Linear(d, h), nn.SiLU()]
        d = h
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def weighted_mse(pred, target, weight):
    """Principal ranks are tuned most carefully, so they count more."""
    return (weight * (pred - target) ** 2).sum() / weight.sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="organ.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    X, pitch, principal = survey(cfg["n_pipes"], seed=1000 + seed)
    n_val = int(len(X) * cfg["val_fraction"])
    Xtr, Xva = X[n_val:], X[:n_val]
    ytr, yva = pitch[n_val:], pitch[:n_val]
    wtr = np.where(principal[n_val:], cfg["principal_weight"], 1.0).astype(np.float32)

    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    y_mu, y_sd = ytr.mean(), ytr.std()
    Xtr_t = torch.from_numpy((Xtr - mu) / sd)
    Xva_t = torch.from_numpy((Xva - mu) / sd)
    ytr_t = torch.from_numpy((ytr - y_mu) / y_sd)
    wtr_t = torch.from_numpy(wtr)

    model = build_mlp(X.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(Xtr_t))
        tot = 0.0
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            opt.zero_grad()
            loss = weighted_mse(model(Xtr_t[b]), ytr_t[b], wtr_t[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} loss={tot / len(perm):.4f}")

    with torch.no_grad():
        pred = model(Xva_t).squeeze(-1).numpy() * y_sd + y_mu
    cents = 100 * np.abs(pred - yva)
    print(f"val_mae_cents={cents.mean():.2f}")


if __name__ == "__main__":
    main()
