"""Write a synthetic loan book to data/loans.csv (one row per loan)."""

import os
import sys

import numpy as np

COLUMNS = [
    "income",
    "debt_ratio",
    "age",
    "late_payments",
    "credit_lines",
    "utilization",
    "years_employed",
    "defaulted",
]


def make_loans(path="data/loans.csv", n=4000, seed=7):
    rng = np.random.default_rng(seed)
    income = rng.lognormal(mean=10.8, sigma=0.5, size=n)
    debt_ratio = rng.beta(2.0, 5.0, size=n)
    age = rng.integers(21, 70, size=n).astype(float)
    late_payments = rng.poisson(1.2, size=n).astype(float)
    credit_lines = rng.integers(1, 15, size=n).astype(float)
    utilization = rng.uniform(0.0, 1.0, size=n)
    years_employed = np.minimum(rng.exponential(6.0, size=n), age - 18)

    score = (
        -1.6 * (np.log(income) - 10.8) / 0.5
        + 7.0 * (debt_ratio - 0.28)
        + 1.1 * (late_payments - 1.2)
        + 5.0 * (utilization - 0.5) ** 2 * np.sign(utilization - 0.5)
        - 0.25 * (years_employed - 5.0)
        + 0.8 * np.where(credit_lines > 10, 1.0, 0.0)
    )
    p = 1.0 / (1.0 + np.exp(-2.0 * score))
    defaulted = (rng.uniform(size=n) < p).astype(float)

    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    table = np.column_stack(
        [
            income,
            debt_ratio,
            age,
            late_payments,
            credit_lines,
            utilization,
            years_employed,
            defaulted,
        ]
    )
    np.savetxt(path, table, delimiter=",", header=",".join(COLUMNS), comments="", fmt="%.5f")
    return path


if __name__ == "__main__":
    print(make_loans(*sys.argv[1:2]))
