"""Render the glyph dataset to data/: one .npy array per sample plus a labels file.

Sample ids are drawn at random so that a file name says nothing about its class.
"""

import argparse
import csv
import os

import numpy as np

CLASSES = ["hbar", "vbar", "diag", "box"]
SIZE = 16


def render(kind, rng):
    img = np.zeros((SIZE, SIZE), dtype=np.float32)
    r, c = rng.integers(3, SIZE - 4, size=2)
    if kind == 0:
        img[r : r + 2, 2 : SIZE - 2] = 1.0
    elif kind == 1:
        img[2 : SIZE - 2, c : c + 2] = 1.0
    elif kind == 2:
        idx = np.arange(2, SIZE - 2)
        img[idx, idx] = 1.0
        img[idx[:-1], idx[:-1] + 1] = 1.0
    else:
        img[r - 3 : r + 3, c - 3] = 1.0
        img[r - 3 : r + 3, c + 2] = 1.0
        img[r - 3, c - 3 : c + 3] = 1.0
        img[r + 2, c - 3 : c + 3] = 1.0
    img += rng.normal(0.0, 0.35, size=img.shape).astype(np.float32)
    return img


def prepare(root="data", per_class=500, seed=1234):
    rng = np.random.default_rng(seed)
    image_dir = os.path.join(root, "images")
    os.makedirs(image_dir, exist_ok=True)

    n_total = per_class * len(CLASSES)
    sample_ids = rng.permutation(n_total)
    labels = {}
    k = 0
    for class_idx in range(len(CLASSES)):
        for _ in range(per_class):
            sid = int(sample_ids[k])
            k += 1
            np.save(os.path.join(image_dir, f"{sid}.npy"), render(class_idx, rng))
            labels[sid] = class_idx

    with open(os.path.join(root, "labels.csv"), "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "label"])
        for sid in sorted(labels):
            writer.writerow([sid, labels[sid]])
    print(f"wrote {n_total} samples to {image_dir}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="data")
    parser.add_argument("--per-class", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()
    prepare(args.root, args.per_class, args.seed)
