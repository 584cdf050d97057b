"""Transactions simulator, model and metrics for the fraud detector."""
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

COLUMNS = ["log_amount", "hour_sin", "hour_cos", "merchant_risk", "km_from_home",
           "tx_last_24h", "card_present", "new_device", "foreign", "account_age_days"]


def simulate(n, fraud_rate, seed):
    rng = np.random.default_rng(seed)
    hour = rng.integers(0, 24, n)
    log_amount = rng.normal(3.2, 1.0, n)
    merchant_risk = rng.beta(2, 8, n)
    km = rng.exponential(15, n)
    tx24 = rng.poisson(2, n)
    card_present = rng.random(n) < 0.6
    new_device = rng.random(n) < 0.08
    foreign = rng.random(n) < 0.05
    age = rng.exponential(700, n)

    night = (hour < 5) | (hour > 22)
    score = (0.9 * (log_amount - 3.2) + 4.0 * merchant_risk + 0.03 * km + 0.35 * tx24
             - 1.6 * card_present + 1.8 * new_device + 1.4 * foreign + 1.0 * night
             - 0.002 * age + rng.normal(0, 0.8, n))
    thr = np.quantile(score, 1 - fraud_rate)
    y = (score > thr).astype(np.float32)
    X = np.stack([log_amount, np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
                  merchant_risk, np.log1p(km), tx24, card_present, new_device, foreign,
                  np.log1p(age)], axis=1).astype(np.float32)
    return X, y


class FraudNet(nn.Module):
    def __init__(self, n_in, hidden=64, p_drop=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p_drop),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


class WeightedBCE(nn.Module):
    """BCE on logits with the positive class up-weighted by neg/pos ratio."""

    def __init__(self, pos_weight):
        super().__init__()
        self.register_buffer("pos_weight", torch.tensor(float(pos_weight)))

    def forward(self, y_true, y_logit):
        return F.binary_cross_entropy_with_logits(y_logit, y_true, pos_weight=self.pos_weight)


def average_precision(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    tp = np.cumsum(labels)
    precision = tp / np.arange(1, len(labels) + 1)
    return float((precision * labels).sum() / max(labels.sum(), 1))
