import csv
from collections import defaultdict

import numpy as np


def read_logs(path):
    shops = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            sold = float(r["sold"]) if r["sold"] else np.nan
            shops[int(r["shop"])].append((int(r["day"]), int(r["weekday"]), float(r["temp"]),
                                          float(r["rain"]), float(r["stock"]), sold))
    return {k: np.array(sorted(v)) for k, v in shops.items()}


def fill_gaps(x):
    """Forward-fill missing sales (till off); leading gaps get the first observed value."""
    x = x.copy()
    idx = np.where(~np.isnan(x))[0]
    x[:idx[0]] = x[idx[0]]
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def rolling_mean(x, window):
    kernel = np.ones(window) / window
    padded = np.concatenate([np.full(window // 2, x[0]), x, np.full(window // 2, x[-1])])
    return np.convolve(padded, kernel, mode="valid")[:len(x)]


def shop_features(rows, window=3):
    day, wd, temp, rain, stock, sold = rows.T
    observed = ~np.isnan(sold)
    sold_f = fill_gaps(sold)
    lag1 = np.concatenate([[sold_f[0]], sold_f[:-1]])
    level = rolling_mean(sold_f, window)
    weekend = (wd >= 5).astype(float)
    X = np.stack([weekend, temp / 10.0, rain, stock / 50.0, lag1 / 50.0, level / 50.0,
                  (stock - level) / 10.0], 1)
    y = (sold >= stock).astype(float)
    return X[observed], y[observed], day[observed]
