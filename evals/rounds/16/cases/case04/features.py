import numpy as np

FEATURES = ["footfall", "event", "price", "temp", "rain", "weekday"]


def load_logs(path="logs/fleet.npz"):
    z = np.load(path)
    logs = {}
    for name in z["names"]:
        name = str(name)
        logs[name] = {col: z[f"{name}/{col}"] for col in FEATURES + ["sales"]}
    return logs


def ffill(a):
    a = a.copy()
    missing = np.isnan(a)
    idx = np.where(~missing, np.arange(len(a)), 0)
    np.maximum.accumulate(idx, out=idx)
    a = a[idx]
    a[np.isnan(a)] = np.nanmean(a)
    return a, missing.astype(float)


def day_features(rec):
    foot, foot_gap = ffill(rec["footfall"])
    temp, temp_gap = ffill(rec["temp"])
    wd = rec["weekday"]
    return np.column_stack([
        np.log1p(foot), foot_gap, rec["event"], rec["price"],
        (temp - 18) / 6, temp_gap, rec["rain"],
        np.sin(2 * np.pi * wd / 7), np.cos(2 * np.pi * wd / 7), (wd >= 5).astype(float),
    ]).astype(np.float32)


def sales_class(sales, ref=None):
    """0/1/2 = low/normal/high relative to the truck's own tertiles."""
    ref = sales if ref is None else ref
    lo, hi = np.quantile(ref, [1 / 3, 2 / 3])
    return np.digitize(sales, [lo, hi]).astype(np.int64)


def split_days(n_days, n_val):
    return slice(0, n_days - n_val), slice(n_days - n_val, n_days)
