"""Regenerate data/kernels.csv (committed; only needed if you change the recipe).

Seven geometric measurements of grain kernels from five varieties.
"""
from pathlib import Path

import numpy as np

VARIETIES = ["kama", "rosa", "canadian", "durum", "spelt"]
COLUMNS = ["area", "perimeter", "compactness", "length", "width", "asymmetry", "groove"]


def main(n_per_class=200, seed=2):
    rng = np.random.default_rng(seed)
    centers = np.array([
        [14.3, 14.3, 0.880, 5.50, 3.24, 2.7, 5.09],
        [18.3, 16.1, 0.884, 6.15, 3.68, 3.6, 6.02],
        [11.9, 13.2, 0.849, 5.23, 2.85, 4.8, 5.12],
        [15.8, 15.2, 0.861, 5.90, 3.30, 3.9, 5.70],
        [13.1, 14.0, 0.842, 5.62, 3.02, 3.2, 5.45],
    ])
    spread = np.array([1.4, 0.7, 0.02, 0.25, 0.19, 1.4, 0.27])
    rows = []
    for label, c in enumerate(centers):
        x = c + rng.normal(size=(n_per_class, len(c))) * spread
        rows.append(np.column_stack([x, np.full(n_per_class, label)]))
    table = np.concatenate(rows)
    table = table[rng.permutation(len(table))]
    out = Path(__file__).resolve().parent.parent / "data" / "kernels.csv"
    header = ",".join(COLUMNS + ["variety"])
    np.savetxt(out, table, delimiter=",", header=header, comments="",
               fmt=["%.3f"] * len(COLUMNS) + ["%d"])
    print(f"wrote {len(table)} rows to {out}")


if __name__ == "__main__":
    main()
