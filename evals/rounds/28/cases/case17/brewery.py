import numpy as np

N_GRADES = 5
YEASTS = 4


def brew_records(n, seed):
    rng = np.random.default_rng(seed)
    polish = rng.uniform(0.35, 0.8, n)          # fraction of grain remaining
    koji_h = rng.normal(48, 4, n)
    temp = rng.normal(11, 2, n)
    days = rng.normal(30, 5, n)
    smv = rng.normal(3, 3, n)
    acid = rng.normal(1.4, 0.25, n)
    amino = rng.normal(1.3, 0.3, n)
    yeast = rng.integers(YEASTS, size=n)
    score = (-6 * (polish - 0.55) - 0.35 * np.abs(temp - 10) + 0.12 * (days - 30)
             - 1.5 * np.abs(acid - 1.35) - 1.2 * (amino - 1.2) + 0.08 * (koji_h - 48)
             + np.array([0.0, 0.5, -0.4, 0.2])[yeast] + rng.normal(0, 0.15, n))
    grade = np.digitize(score, np.quantile(score, [0.2, 0.4, 0.6, 0.8]))
    num = np.column_stack([polish, koji_h, temp, days, smv, acid, amino])
    X = np.concatenate([num, np.eye(YEASTS)[yeast]], axis=1).astype(np.float32)
    return X, grade.astype(np.int64)
