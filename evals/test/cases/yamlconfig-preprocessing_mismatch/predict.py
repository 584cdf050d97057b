"""Load a trained checkpoint and score a feature table."""
import argparse
import logging

import numpy as np
import torch

from model import CapacityRegressor

log = logging.getLogger(__name__)


def prepare_inputs(X):
    """Scale raw measurements into the range the network was trained on."""
    lo = X.min(axis=0)
    hi = X.max(axis=0)
    return ((X - lo) / (hi - lo + 1e-8)).astype(np.float32)


def load_model(ckpt_path):
    ckpt = torch.load(ckpt_path, weights_only=False)
    model = CapacityRegressor(ckpt["n_features"], **ckpt["model_cfg"])
    model.load_state_dict(ckpt["state_dict"])
    model.eval()
    return model, ckpt


@torch.no_grad()
def predict(model, X):
    return model(torch.from_numpy(prepare_inputs(X))).numpy()


def score(ckpt_path, X, y):
    model, _ = load_model(ckpt_path)
    pred = predict(model, X)
    rmse = float(np.sqrt(np.mean((pred - y) ** 2)))
    mae = float(np.mean(np.abs(pred - y)))
    return {"rmse": rmse, "mae": mae}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("table", help=".npz with X (and optionally y)")
    args = ap.parse_args()
    blob = np.load(args.table)
    model, _ = load_model(args.checkpoint)
    preds = predict(model, blob["X"])
    if "y" in blob:
        print(f"rmse {np.sqrt(np.mean((preds - blob['y']) ** 2)):.4f}")
    else:
        np.savetxt("predictions.txt", preds, fmt="%.4f")
