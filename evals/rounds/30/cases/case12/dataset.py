import csv
import numpy as np

FEATURES = ["area_m2", "depth_cm", "rock_cover", "algae_cover", "water_temp"]


def read_rows(path="survey.csv"):
    with open(path) as fh:
        return list(csv.DictReader(fh))


def feature_matrix(rows):
    # stable order by pool id so cached feature files line up between runs
    rows = sorted(rows, key=lambda r: r["pool_id"])
    x = np.array([[float(r[k]) for k in FEATURES] for r in rows], dtype=np.float32)
    x[:, 0] = np.log(x[:, 0])
    return x


def targets(rows):
    return np.log1p(np.array([float(r["snails"]) for r in rows], dtype=np.float32))
