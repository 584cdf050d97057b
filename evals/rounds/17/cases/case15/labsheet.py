import numpy as np

COLUMNS = ["moisture", "hmf", "diastase", "pfund", "conductivity", "fg_ratio", "pollen", "panel"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    quality = rng.normal(0, 1, n)
    moisture = 18.5 - 1.1 * quality + rng.normal(0, 0.6, n)
    hmf = np.exp(2.3 - 0.5 * quality + rng.normal(0, 0.3, n))
    diastase = 14 + 3 * quality + rng.normal(0, 2, n)
    pfund = rng.uniform(10, 120, n)                      # colour is not a quality signal here
    conductivity = rng.gamma(3, 0.15, n)
    fg_ratio = 1.15 + 0.05 * quality + rng.normal(0, 0.05, n)
    pollen = np.exp(9 + 0.4 * quality + rng.normal(0, 0.5, n))
    panel = 6 + 1.3 * quality + rng.normal(0, 0.8, n)
    X = np.column_stack([moisture, hmf, diastase, pfund, conductivity, fg_ratio, pollen, panel])
    # lab sheet grades are 1..5
    grade = 1 + np.digitize(quality + rng.normal(0, 0.25, n), [-1.0, -0.3, 0.3, 1.0])
    return X.astype(np.float32), grade.astype(np.int64)
