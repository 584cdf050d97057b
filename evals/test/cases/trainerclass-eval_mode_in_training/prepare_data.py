"""Write the synthetic sensor-fault dataset as CSV files.

    python prepare_data.py --out data
"""
import argparse
from pathlib import Path

import numpy as np

N_FEATURES = 32
N_CLASSES = 4


def generate(n, rng, proj, offsets, gains, label_noise):
    latent = rng.normal(size=(n, 6))
    logits = np.stack([
        latent[:, 0] + latent[:, 1] * latent[:, 2],
        latent[:, 3] - np.abs(latent[:, 0]),
        np.sin(2 * latent[:, 4]) + latent[:, 5],
        0.5 * latent[:, 1] - latent[:, 5] * latent[:, 3],
    ], axis=1)
    y = logits.argmax(axis=1)
    # sensors see a noisy mixture of the latent state
    X = latent @ proj + rng.normal(scale=0.6, size=(n, N_FEATURES))
    X = X * gains + offsets
    # a fraction of the maintenance log is mislabeled
    flip = rng.random(n) < label_noise
    y[flip] = rng.integers(0, N_CLASSES, size=flip.sum())
    return X.astype(np.float32), y


def write_csv(path, X, y):
    header = ",".join([f"s{i}" for i in range(X.shape[1])] + ["fault"])
    table = np.column_stack([X, y])
    fmt = ["%.5f"] * X.shape[1] + ["%d"]
    np.savetxt(path, table, delimiter=",", header=header, comments="", fmt=fmt)


def prepare(out_dir, seed=0, n_train=800, n_val=300, n_test=1000):
    rng = np.random.default_rng(seed)
    proj = rng.normal(size=(6, N_FEATURES))
    # raw sensor units: temperatures, pressures, currents, ...
    offsets = rng.uniform(-20.0, 80.0, size=N_FEATURES)
    gains = rng.uniform(0.5, 12.0, size=N_FEATURES)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, n in (("train", n_train), ("val", n_val), ("test", n_test)):
        noise = 0.1 if name == "train" else 0.0
        X, y = generate(n, rng, proj, offsets, gains, noise)
        write_csv(out / f"{name}.csv", X, y)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="data")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print("wrote", prepare(args.out, args.seed))
