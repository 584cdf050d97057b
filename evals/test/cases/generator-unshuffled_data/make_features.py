import argparse
from pathlib import Path

import numpy as np

KEYWORDS = ["up", "down", "left", "right", "stop", "go"]
N_FEATURES = 40


def keyword_templates(rng):
    base = rng.normal(size=(len(KEYWORDS), N_FEATURES))
    return 0.3 * base


def utterances(template, n, rng):
    speaker = rng.normal(scale=0.5, size=(n, 1)) * np.linspace(-1, 1, N_FEATURES)
    loudness = rng.normal(scale=0.4, size=(n, 1))
    noise = rng.normal(scale=0.7, size=(n, N_FEATURES))
    warped = template[None, :] * rng.uniform(0.7, 1.3, size=(n, 1))
    return (warped + speaker + loudness + noise).astype(np.float32)


def write_features(out_dir="data", n_train=1500, n_test=150, seed=5):
    rng = np.random.default_rng(seed)
    templates = keyword_templates(rng)
    for split, n in (("train", n_train), ("test", n_test)):
        d = Path(out_dir) / split
        d.mkdir(parents=True, exist_ok=True)
        for k, word in enumerate(KEYWORDS):
            np.save(d / f"{word}.npy", utterances(templates[k], n, rng))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="data")
    args = ap.parse_args()
    write_features(args.out)
