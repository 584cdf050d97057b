"""Synthetic customer table: 3 categorical + 6 numeric columns, churn flag."""
import numpy as np
import torch
from torch.utils.data import TensorDataset

CATEGORICAL = {"plan": 5, "region": 12, "channel": 4}
NUMERIC = ["tenure_months", "monthly_spend", "support_calls", "late_payments", "usage_trend", "discount"]


def generate(n, seed):
    rng = np.random.default_rng(seed)
    plan = rng.integers(0, 5, n)
    region = rng.integers(0, 12, n)
    channel = rng.integers(0, 4, n)
    tenure = rng.gamma(2.0, 12.0, n)
    spend = 20 + 15 * plan + rng.normal(0, 8, n)
    calls = rng.poisson(1.5, n)
    late = rng.poisson(0.4, n)
    trend = rng.normal(0, 1, n)
    discount = rng.binomial(1, 0.3, n) * rng.uniform(5, 25, n)

    region_risk = np.random.default_rng(0).normal(0, 0.8, 12)
    logit = (-0.6 - 0.04 * tenure + 0.5 * calls + 0.9 * late - 1.2 * trend
             + region_risk[region] + 0.4 * (channel == 3) - 0.05 * discount
             + 0.02 * (spend - 50) + 0.6 * (plan == 0) * (calls > 2))
    churned = rng.random(n) < 1 / (1 + np.exp(-logit))

    cats = np.column_stack([plan, region, channel]).astype(np.int64)
    nums = np.column_stack([tenure, spend, calls, late, trend, discount]).astype(np.float32)
    return cats, nums, churned.astype(np.float32)


def build_datasets(n, holdout_fraction, seed):
    cats, nums, y = generate(n, seed)
    order = np.random.default_rng(seed + 1).permutation(n)
    n_hold = int(n * holdout_fraction)
    hold, train = order[:n_hold], order[n_hold:]
    mu, sd = nums[train].mean(0), nums[train].std(0) + 1e-6
    nums = (nums - mu) / sd

    def ds(rows):
        return TensorDataset(torch.from_numpy(cats[rows]), torch.from_numpy(nums[rows]),
                             torch.from_numpy(y[rows]))

    return ds(train), ds(hold)
