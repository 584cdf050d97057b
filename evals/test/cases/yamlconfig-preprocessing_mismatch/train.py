import argparse
import logging
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import yaml
from torch.utils.data import DataLoader, TensorDataset

import predict
from dataset import load_or_create, split
from model import CapacityRegressor

log = logging.getLogger("train")


def save_checkpoint(path, model, n_features, model_cfg, stats, epoch, val_rmse):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({
        "state_dict": model.state_dict(),
        "n_features": n_features,
        "model_cfg": model_cfg,
        "feature_mean": stats[0],
        "feature_std": stats[1],
        "epoch": epoch,
        "val_rmse": val_rmse,
    }, path)


def rmse_on(model, X, y):
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(X))
    return torch.sqrt(torch.mean((pred - torch.from_numpy(y)) ** 2)).item()


def main(cfg):
    torch.manual_seed(cfg["seed"])
    dcfg, tcfg = cfg["data"], cfg["training"]

    X, y = load_or_create(dcfg["path"], dcfg["n_cells"], cfg["seed"])
    tr, va, te = split(len(y), dcfg["test_fraction"], dcfg["val_fraction"], cfg["seed"])

    mean = X[tr].mean(axis=0)
    std = X[tr].std(axis=0) + 1e-6
    Xn = ((X - mean) / std).astype(np.float32)

    loader = DataLoader(TensorDataset(torch.from_numpy(Xn[tr]), torch.from_numpy(y[tr])),
                        batch_size=tcfg["batch_size"], shuffle=True,
                        generator=torch.Generator().manual_seed(cfg["seed"]))

    model = CapacityRegressor(X.shape[1], **cfg["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=tcfg["lr"], weight_decay=tcfg["weight_decay"])
    loss_fn = nn.MSELoss()

    best = float("inf")
    for epoch in range(1, tcfg["epochs"] + 1):
        model.train()
        epoch_loss = 0.0
        for feats, capacity in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(feats), capacity)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * len(capacity)
        val_rmse = rmse_on(model, Xn[va], y[va])
        if val_rmse < best:
            best = val_rmse
            save_checkpoint(tcfg["checkpoint"], model, X.shape[1], cfg["model"], (mean, std), epoch, val_rmse)
        if epoch % 5 == 0 or epoch == 1:
            log.info("epoch %3d  train_mse %.5f  val_rmse %.4f", epoch, epoch_loss / len(tr), val_rmse)

    log.info("best val_rmse %.4f", best)
    metrics = predict.score(tcfg["checkpoint"], X[te], y[te])
    log.info("test rmse: %.4f  test mae: %.4f", metrics["rmse"], metrics["mae"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("-c", "--config", default="config.yaml")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    with open(args.config) as fh:
        main(yaml.safe_load(fh))
