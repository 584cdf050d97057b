import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from hydro import make_windows, simulate_gauge


def build_model(n_in, hidden):
    return nn.Sequential(
        nn.Linear(n_in, hidden), nn.GELU(),
        nn.Linear(hidden, hidden), nn.GELU(),
        nn.Linear(hidden, 1),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    torch.set_num_threads(1)

    table = simulate_gauge(cfg["days"])
    X, y = make_windows(table, cfg["lookback"], cfg["horizon"])

    # chronological split: the validation period is the last part of the record
    cut = int(len(X) * (1 - cfg["val_fraction"]))
    Xtr, ytr, Xva, yva = X[:cut], y[:cut], X[cut:], y[cut:]

    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    y_mu, y_sd = ytr.mean(), ytr.std()
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd
    Xtr, Xva = torch.from_numpy(Xtr), torch.from_numpy(Xva)
    ytr_n = torch.from_numpy((ytr - y_mu) / y_sd)

    model = build_model(X.shape[1], cfg["hidden"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        running = 0.0
        for i in range(0, len(perm), cfg["batch_size"]):
            b = perm[i:i + cfg["batch_size"]]
            pred = model(Xtr[b]).squeeze(1)
            loss = nn.functional.mse_loss(pred, ytr_n[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            pred_va = model(Xva).squeeze(1).numpy() * y_sd + y_mu
        rmse = float(np.sqrt(np.mean((pred_va - yva) ** 2)))
        if epoch % 5 == 4 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch + 1} train_mse={running / len(Xtr):.4f} val_rmse={rmse:.4f}")

    persistence = float(np.sqrt(np.mean((table[cut + cfg['lookback'] - 1:cut + cfg['lookback'] - 1 + len(yva), 0] - yva) ** 2)))
    print(f"persistence_rmse={persistence:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
