"""Turn raw log rows into model inputs and day classes."""
import csv
import numpy as np

NUMERIC = ("temp_c", "rain_mm", "footfall")


def read_log(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _missing(v):
    return v is None or v.strip() == ""


def feature_rows(rows):
    """Numeric + calendar features; days without weather are skipped."""
    out = []
    for r in rows:
        if any(_missing(r[c]) for c in NUMERIC):
            continue
        wd = int(r["weekday"])
        onehot = [1.0 if wd == k else 0.0 for k in range(7)]
        out.append([float(r["temp_c"]), float(r["rain_mm"]), float(r["footfall"]) / 100.0,
                    float(r["market"])] + onehot)
    return np.asarray(out, dtype=np.float32)


def sales_classes(rows, cuts=(142.0, 165.0)):
    """0 = slow, 1 = normal, 2 = busy. Days with no till export are skipped."""
    out = []
    for r in rows:
        if _missing(r["sales"]):
            continue
        s = float(r["sales"])
        out.append(0 if s < cuts[0] else (1 if s < cuts[1] else 2))
    return np.asarray(out, dtype=np.int64)


def standardize(train, other):
    mu = train.mean(0, keepdims=True)
    sd = train.std(0, keepdims=True) + 1e-6
    return (train - mu) / sd, (other - mu) / sd
