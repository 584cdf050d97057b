import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from fingerprints import simulate


class SolubilityMLP(nn.Module):
    def __init__(self, n_bits, hidden, dropout, input_dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Dropout(input_dropout),
            nn.Linear(n_bits, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, 1),
        )

    def forward(self, fp):
        return self.net(fp).squeeze(-1)


def scaffold_like_split(fp, seed, frac=(0.7, 0.15, 0.15)):
    idx = np.random.default_rng(seed).permutation(len(fp))
    a, b = int(frac[0] * len(fp)), int((frac[0] + frac[1]) * len(fp))
    return idx[:a], idx[a:b], idx[b:]


def rmse(model, x, y, y_mean, y_std):
    model.eval
    with torch.no_grad():
        pred = model(x) * y_std + y_mean
    return torch.sqrt(((pred - y) ** 2).mean()).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hparams", default="hparams.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    hp = json.load(open(args.hparams))
    if args.seed is not None:
        hp["seed"] = args.seed
    torch.manual_seed(hp["seed"])

    fp, logs = simulate(hp["n_molecules"], hp["n_bits"], hp["data_seed"])
    tr, va, te = scaffold_like_split(fp, hp["data_seed"])
    x = torch.from_numpy(fp)
    y = torch.from_numpy(logs)
    y_mean, y_std = y[tr].mean(), y[tr].std()
    print(f"{len(tr)}/{len(va)}/{len(te)} molecules, logS mean {y_mean:.2f} std {y_std:.2f}")

    model = SolubilityMLP(hp["n_bits"], hp["hidden"], hp["dropout"], hp["input_dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=hp["lr"], weight_decay=hp["weight_decay"])
    best, best_state = float("inf"), None
    for epoch in range(hp["epochs"]):
        model.train()
        perm = torch.from_numpy(tr)[torch.randperm(len(tr))]
        for i in range(0, len(perm), hp["batch_size"]):
            idx = perm[i:i + hp["batch_size"]]
            loss = nn.functional.mse_loss(model(x[idx]), (y[idx] - y_mean) / y_std)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val = rmse(model, x[va], y[va], y_mean, y_std)
        if val < best:
            best, best_state = val, {k: v.clone() for k, v in model.state_dict().items()}
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1:3d} train_mse {loss.item():.3f} val_rmse {val:.3f} best {best:.3f}")

    model.load_state_dict(best_state)
    print(f"best val_rmse={best:.4f}")
    print(f"test_rmse={rmse(model, x[te], y[te], y_mean, y_std):.4f}")


if __name__ == "__main__":
    main()
