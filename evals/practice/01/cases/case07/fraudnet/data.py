"""Simulated validator logs.

Each record is one validation event with a handful of engineered features.
Fraud is rare (~9%) and mostly shows up as combinations: a cheap ticket used
far outside its zone, a day pass validated on two distant lines within a few
minutes, a student card at 3 a.m. on a weekday, ...
"""
import numpy as np
import torch

FEATURES = [
    "hour_sin", "hour_cos", "weekday", "ticket_age_h", "zones_paid",
    "zones_travelled", "min_since_last_validation", "km_since_last_validation",
    "validations_today", "is_student", "is_day_pass", "validator_id_mod",
]


def simulate(n, rng):
    hour = rng.uniform(0, 24, n)
    weekday = rng.integers(0, 7, n)
    ticket_age = rng.exponential(6.0, n)
    zones_paid = rng.integers(1, 5, n)
    zones_travelled = np.clip(zones_paid + rng.integers(-1, 3, n), 1, 6)
    gap_min = rng.exponential(90.0, n)
    gap_km = rng.exponential(4.0, n)
    n_today = rng.poisson(2.5, n)
    student = rng.random(n) < 0.25
    day_pass = rng.random(n) < 0.35
    validator = rng.integers(0, 50, n) % 7

    # latent fraud score built from interactions
    speed = gap_km / (gap_min / 60.0 + 0.05)          # km/h between validations
    night = (hour < 5) | (hour > 23)
    z = (
        -6.5
        + 3.5 * (zones_travelled - zones_paid).clip(0, None)
        + 5.0 * (day_pass & (speed > 40))
        + 5.0 * (student & night & (weekday < 5))
        + 0.9 * np.maximum(n_today - 4, 0)
        + 2.0 * (ticket_age > 20)
        + rng.normal(0, 0.4, n)
    )
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-z))).astype(np.float32)

    X = np.stack([
        np.sin(hour / 24 * 2 * np.pi), np.cos(hour / 24 * 2 * np.pi), weekday / 6.0,
        np.log1p(ticket_age), zones_paid, zones_travelled, np.log1p(gap_min),
        np.log1p(gap_km), n_today, student, day_pass, validator,
    ], axis=1).astype(np.float32)
    return X, y


def make_splits(cfg):
    rng = np.random.default_rng(cfg["seed"])
    X, y = simulate(cfg["n_records"], rng)
    idx = rng.permutation(len(y))
    n_val = int(len(y) * cfg["val_fraction"])
    va, tr = idx[:n_val], idx[n_val:]
    mu, sd = X[tr].mean(0), X[tr].std(0) + 1e-6
    X = (X - mu) / sd
    to_t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    return (to_t(X[tr]), to_t(y[tr])), (to_t(X[va]), to_t(y[va]))
