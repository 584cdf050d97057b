import argparse
import json

import numpy as np
import torch

from model import TeamEncoder
from season import simulate_season


def run(cfg):
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(31337)
    members, mix, score = simulate_season(cfg["pool_size"], cfg["n_nights"], cfg["max_team"],
                                          cfg["categories"], rng)
    n_test = int(len(score) * cfg["test_frac"])
    M, X, Y = map(torch.from_numpy, (members, mix, score))
    Mtr, Xtr, Ytr = M[n_test:], X[n_test:], Y[n_test:]
    Mte, Xte, Yte = M[:n_test], X[:n_test], Y[:n_test]
    y_mu, y_sd = Ytr.mean(), Ytr.std()

    model = TeamEncoder(cfg["pool_size"], cfg["categories"], cfg["member_dim"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(cfg["seed"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Ytr), generator=gen)
        for i in range(0, len(perm), cfg["batch_size"]):
            b = perm[i:i + cfg["batch_size"]]
            pred = model(Mtr[b], Xtr[b])
            loss = torch.nn.functional.mse_loss(pred, (Ytr[b] - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            mae = ((model(Mte, Xte) * y_sd + y_mu) - Yte).abs().mean().item()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1}: train_mse={loss.item():.4f} test_mae={mae:.3f}")
    print(f"(predicting the mean gives {(Yte - y_mu).abs().mean().item():.3f})")
    print(f"test_mae={mae:.4f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    with open(a.config) as fh:
        cfg = json.load(fh)
    if a.seed is not None:
        cfg["seed"] = a.seed
    run(cfg)
