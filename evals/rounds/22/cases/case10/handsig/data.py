"""Synthetic pool sessions.

A session produces two artefacts, like the real glove logger does:

* a *recording store*: ``{recording_id: angles[22]}`` (one averaged pose per take)
* an *annotation log*: ``{recording_id: signal_index}`` written by the dive
  instructor on the tablet after reviewing the video.

Recording ids are ``"<diver>-t<take>"``.
"""
import numpy as np

from . import N_ANGLES, SIGNALS


def simulate_session(n_divers, takes_per_signal, seed):
    rng = np.random.default_rng(seed)
    # canonical pose per signal: finger flexion pattern + wrist angles (degrees)
    protos = rng.uniform(-40.0, 90.0, size=(len(SIGNALS), N_ANGLES))
    store, log = {}, []
    for d in range(n_divers):
        hand = rng.normal(0.0, 6.0, size=N_ANGLES)      # hand size / glove fit
        drift = rng.normal(0.0, 3.0)
        takes = [s for s in range(len(SIGNALS)) for _ in range(takes_per_signal)]
        rng.shuffle(takes)
        for t, s in enumerate(takes):
            rid = f"d{d:02d}-t{t:03d}"
            pose = protos[s] + hand + drift + rng.normal(0.0, 14.0, size=N_ANGLES)
            store[rid] = pose.astype(np.float32)
            log.append((rid, s))
    # the instructor goes through the video signal by signal, so the tablet
    # log ends up grouped by signal
    log.sort(key=lambda item: item[1])
    annotations = dict(log)
    return store, annotations


def diver_of(rid):
    return rid.split("-")[0]


def split_ids(store, n_val_divers):
    """Hold out whole divers: the glove fit differs per person."""
    ids = sorted(store)
    divers = sorted({diver_of(r) for r in ids})
    val_divers = set(divers[-n_val_divers:])
    train = [r for r in ids if diver_of(r) not in val_divers]
    val = [r for r in ids if diver_of(r) in val_divers]
    return train, val


def stack_angles(store, ids):
    return np.stack([store[r] for r in ids]).astype(np.float32)


def stack_labels(annotations, ids):
    wanted = set(ids)
    return np.array([lab for rid, lab in annotations.items() if rid in wanted], dtype=np.int64)


class AngleScaler:
    """Per-angle standardisation fitted on training recordings."""

    def fit(self, x):
        self.mean = x.mean(0, keepdims=True)
        self.std = x.std(0, keepdims=True) + 1e-6
        return self

    def __call__(self, x):
        return (x - self.mean) / self.std
