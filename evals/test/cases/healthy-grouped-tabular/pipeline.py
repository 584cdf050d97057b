"""Data handling for the gait-fatigue study.

Each participant walked several sessions; a session is labelled fatigued (1) or
rested (0). Rows of the same participant are strongly alike, so all splits are by
participant.
"""
import os

import numpy as np

COLUMNS = ["participant", "stride_time", "stride_cv", "cadence", "step_width",
           "trunk_sway", "heel_strike_var", "self_reported_fatigue", "fatigued"]
FEATURES = COLUMNS[1:-1]


def simulate_sessions(path, n_participants=80, sessions=(6, 14), seed=4):
    rng = np.random.default_rng(seed)
    rows = []
    for pid in range(n_participants):
        baseline = rng.normal(0, 1.0, 6)
        for _ in range(rng.integers(*sessions)):
            fatigued = int(rng.random() < 0.5)
            shift = np.array([0.9, 1.1, -0.8, 0.5, 1.0, 0.7]) * fatigued
            gait = baseline + shift + rng.normal(0, 0.6, 6)
            # questionnaire answer: informative but far from exact
            survey = 0.9 * fatigued + rng.normal(0, 0.7)
            rows.append([pid, *gait, survey, fatigued])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savetxt(path, np.asarray(rows), delimiter=",", header=",".join(COLUMNS), comments="", fmt="%.5f")


def load_sessions(path="data/sessions.csv"):
    if not os.path.exists(path):
        simulate_sessions(path)
    table = np.loadtxt(path, delimiter=",", skiprows=1)
    participant = table[:, 0].astype(int)
    x = table[:, 1:-1].astype(np.float32)
    y = table[:, -1].astype(np.int64)
    return x, y, participant


def group_split(groups, test_fraction=0.25, seed=0):
    """Index arrays for a split in which no participant appears on both sides."""
    rng = np.random.default_rng(seed)
    unique = np.unique(groups)
    rng.shuffle(unique)
    n_test = int(round(test_fraction * len(unique)))
    test_groups = unique[:n_test]
    test_mask = np.isin(groups, test_groups)
    return np.where(~test_mask)[0], np.where(test_mask)[0]


class ZScore:
    def __init__(self, x_fit):
        self.mu = x_fit.mean(axis=0, keepdims=True)
        self.sd = x_fit.std(axis=0, keepdims=True) + 1e-6

    def __call__(self, x):
        return (x - self.mu) / self.sd
