"""Synthetic cohort: every subject contributes several short recordings.

Each recording is summarised by band-power features per electrode group. Subjects
differ a lot from each other (skull thickness, electrode placement, ...), and the
diagnosis shifts a few bands by a smaller amount.
"""

import os

import numpy as np

N_FEATURES = 24


def simulate_cohort(n_subjects=60, recordings_per_subject=10, seed=3):
    rng = np.random.default_rng(seed)
    diagnosis = rng.permutation(np.arange(n_subjects) % 2)
    effect = np.zeros(N_FEATURES)
    effect[[2, 3, 9, 10, 17]] = [1.1, 0.9, -1.0, -0.8, 0.7]

    features, labels, subjects = [], [], []
    for sid in range(n_subjects):
        fingerprint = rng.normal(0.0, 0.9, N_FEATURES)
        centre = fingerprint + diagnosis[sid] * effect
        for _ in range(recordings_per_subject):
            features.append(centre + rng.normal(0.0, 0.3, N_FEATURES))
            labels.append(diagnosis[sid])
            subjects.append(sid)
    return (
        np.asarray(features, dtype=np.float32),
        np.asarray(labels, dtype=np.int64),
        np.asarray(subjects, dtype=np.int64),
    )


def load_cohort(path="data/cohort.npz"):
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        x, y, s = simulate_cohort()
        np.savez(path, features=x, labels=y, subjects=s)
    arrays = np.load(path)
    return arrays["features"], arrays["labels"], arrays["subjects"]
