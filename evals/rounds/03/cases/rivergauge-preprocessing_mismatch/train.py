"""Forecast tomorrow's downstream gauge level from today's basin records.

The first 5 years are used for training, the following 2 for validation
(chronological split). Inputs and target are standardized with statistics of
the training years; metrics are reported in centimetres.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import GaugeDataset
from hydro import COLUMNS, simulate
from scaling import Standardizer


def build_model(n_in, hidden):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(),
                         nn.Linear(hidden, hidden), nn.SiLU(),
                         nn.Linear(hidden, 1))


@torch.no_grad()
def evaluate(model, loader, y_scaler):
    model.eval()
    preds, targets = [], []
    for xb, yb in loader:
        preds.append(model(xb).numpy())
        targets.append(yb.numpy())
    model.train()
    pred_cm = y_scaler.inverse_transform(np.concatenate(preds))
    true_cm = y_scaler.inverse_transform(np.concatenate(targets))
    rmse = float(np.sqrt(np.mean((pred_cm - true_cm) ** 2)))
    r2 = 1 - np.sum((pred_cm - true_cm) ** 2) / np.sum((true_cm - true_cm.mean()) ** 2)
    return rmse, float(r2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, y = simulate(7 * 365, seed=11)
    n_train = 5 * 365
    x_tr, y_tr, x_va, y_va = x[:n_train], y[:n_train], x[n_train:], y[n_train:]

    x_scaler = Standardizer().fit(x_tr)
    y_scaler = Standardizer().fit(y_tr)
    train_set = GaugeDataset(x_tr, y_tr, x_scaler, y_scaler)
    val_set = GaugeDataset(x_va, y_va, y_scaler=y_scaler)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True,
                              generator=torch.Generator().manual_seed(args.seed))
    val_loader = DataLoader(val_set, batch_size=512)

    model = build_model(len(COLUMNS), args.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.MSELoss()
    print(f"train {len(train_set)} days, val {len(val_set)} days, "
          f"val std {y_va.std():.1f} cm")

    for epoch in range(1, args.epochs + 1):
        running = 0.0
        for xb, yb in train_loader:
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(xb)
        if epoch % 5 == 0:
            rmse, r2 = evaluate(model, val_loader, y_scaler)
            print(f"epoch {epoch:3d}  train_mse(z) {running / len(train_set):.4f}  "
                  f"val_rmse {rmse:.2f} cm  val_r2 {r2:.3f}")

    rmse, r2 = evaluate(model, val_loader, y_scaler)
    print(f"val_r2={r2:.4f}")
    print(f"val_rmse_cm={rmse:.3f}")


if __name__ == "__main__":
    main()
