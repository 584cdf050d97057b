"""Generate the 8x8 glyph dataset.

Each class is a fixed stroke pattern; samples are the pattern shifted by up
to one pixel, with random stroke intensity and sensor noise.
"""
import argparse
from pathlib import Path

import numpy as np

N_CLASSES = 10


def class_templates(rng):
    templates = np.zeros((N_CLASSES, 8, 8), dtype=np.float32)
    for c in range(N_CLASSES):
        # random walk strokes, 2 per glyph
        for _ in range(2):
            r, col = rng.integers(1, 7, size=2)
            for _ in range(7):
                templates[c, r, col] = 1.0
                dr, dc = rng.integers(-1, 2, size=2)
                r = int(np.clip(r + dr, 1, 6))
                col = int(np.clip(col + dc, 1, 6))
    return templates


def render(templates, n, rng):
    labels = rng.integers(0, N_CLASSES, size=n)
    images = np.zeros((n, 8, 8), dtype=np.float32)
    for i, c in enumerate(labels):
        img = templates[c] * rng.uniform(0.5, 1.0)
        dy, dx = rng.integers(-1, 2, size=2)
        img = np.roll(np.roll(img, dy, axis=0), dx, axis=1)
        img = img + rng.normal(0, 0.3, size=(8, 8))
        images[i] = np.clip(img, 0.0, 1.0)
    return (images * 255).astype(np.uint8), labels.astype(np.int64)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", default="data")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--n-train", type=int, default=3000)
    ap.add_argument("--n-test", type=int, default=1000)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    templates = class_templates(rng)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for split, n in (("train", args.n_train), ("test", args.n_test)):
        x, y = render(templates, n, rng)
        np.savez_compressed(out / f"glyphs_{split}.npz", images=x, labels=y)
        print(f"wrote {out / f'glyphs_{split}.npz'}: {x.shape}")


if __name__ == "__main__":
    main()
