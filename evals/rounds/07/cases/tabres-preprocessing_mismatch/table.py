"""Synthetic applicant table. Column scales are deliberately heterogeneous."""
import numpy as np

COLUMNS = ["income", "savings", "debt", "age", "tenure_months", "n_accounts",
           "utilization", "late_payments", "requested", "region_risk"]


def generate(n, seed=2024):
    rng = np.random.default_rng(seed)
    income = rng.lognormal(10.8, 0.5, n)
    savings = rng.lognormal(9.0, 1.0, n)
    debt = rng.lognormal(9.5, 0.8, n)
    age = rng.uniform(19, 75, n)
    tenure = rng.integers(0, 360, n).astype(float)
    n_acc = rng.poisson(4, n).astype(float)
    util = rng.beta(2, 3, n)
    late = rng.poisson(0.7, n).astype(float)
    requested = rng.lognormal(9.2, 0.6, n)
    region = rng.normal(0, 1, n)
    X = np.stack([income, savings, debt, age, tenure, n_acc, util, late, requested, region], 1)
    score = (1.6 * np.log(income / debt) + 0.5 * np.log1p(savings / requested)
             - 2.2 * util - 0.8 * late + 0.004 * tenure + 0.3 * np.tanh((age - 30) / 10)
             - 0.5 * region + 0.8 * np.sin(n_acc))
    score = score - np.median(score)
    y = (score + rng.normal(0, 0.35, n) > 0).astype(np.int64)
    return X.astype(np.float32), y


def split(X, y, holdout_frac, seed):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))
    k = int(len(y) * holdout_frac)
    return (X[idx[k:]], y[idx[k:]]), (X[idx[:k]], y[idx[:k]])
