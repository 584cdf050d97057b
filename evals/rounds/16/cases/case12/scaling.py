import numpy as np


class SessionScaler:
    """Per-session, per-channel standardisation.

    Stats are keyed by session id; an unseen id falls back to the pooled stats
    of all fitted sessions.
    """

    def __init__(self):
        self.stats = {}
        self.pooled = None

    def fit(self, sessions):
        for sid, (x, _) in sessions.items():
            self.stats[sid] = (x.mean(axis=(0, 2), keepdims=True)[0],
                               x.std(axis=(0, 2), keepdims=True)[0] + 1e-6)
        allx = np.concatenate([x for x, _ in sessions.values()])
        self.pooled = (allx.mean(axis=(0, 2), keepdims=True)[0], allx.std(axis=(0, 2), keepdims=True)[0] + 1e-6)
        return self

    def transform(self, sid, x):
        mu, sd = self.stats.get(sid, self.pooled)
        return (x - mu) / sd
