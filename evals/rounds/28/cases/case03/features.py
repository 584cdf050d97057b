import csv

import numpy as np

TIER_EDGES = (70.0, 110.0)   # units sold: <70 slow, 70-110 normal, >110 rush


def load_logs(path="logs/sales.csv"):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    by_stand = {}
    for r in rows:
        by_stand.setdefault(int(r["stand"]), []).append(r)
    return by_stand


def _num(v):
    return float(v) if v != "" else np.nan


def stand_table(rows, n_stands, stand):
    """Feature rows for one stand: weather for the target day + lagged sales."""
    sales = np.array([_num(r["sales"]) for r in rows])
    temp = np.array([float(r["temp_c"]) for r in rows])
    sun = np.array([float(r["sun_h"]) for r in rows])
    weekend = np.array([float(r["weekend"]) for r in rows])
    onehot = np.zeros((len(rows), n_stands))
    onehot[:, stand] = 1.0
    lag1 = np.concatenate([[np.nan], sales[:-1]])
    lag7 = np.concatenate([np.full(7, np.nan), sales[:-7]])
    feats = np.column_stack([temp, sun, weekend, lag1, lag7, onehot])
    return feats[7:], sales[7:]


def build_dataset(path="logs/sales.csv"):
    by_stand = load_logs(path)
    n_stands = len(by_stand)
    feats, target, day = [], [], []
    for s, rows in sorted(by_stand.items()):
        f, t = stand_table(rows, n_stands, s)
        feats.append(f)
        target.append(t)
        day.append(np.arange(7, len(rows)))
    feats = np.concatenate(feats)
    target = np.concatenate(target)
    day = np.concatenate(day)
    # drop days the stand was closed: there is nothing to predict for them
    keep = ~np.isnan(target)
    feats, target, day = feats[keep], target[keep], day[keep]
    tiers = np.digitize(target, TIER_EDGES)
    return feats.astype(np.float32), tiers.astype(np.int64), day


def standardize(train, other, cols):
    mu = np.nanmean(train[:, cols], axis=0)
    sd = np.nanstd(train[:, cols], axis=0) + 1e-6
    train = train.copy()
    other = other.copy()
    train[:, cols] = (train[:, cols] - mu) / sd
    other[:, cols] = (other[:, cols] - mu) / sd
    return train, other
