import numpy as np


class SessionScaler:
    """Per-session z-scoring of belt traces.

    Statistics are kept per session id; '__all__' holds pooled statistics
    for traces whose session has not been seen.
    """

    def __init__(self):
        self.stats = {}

    def fit(self, windows, sessions):
        for s in np.unique(sessions):
            w = windows[sessions == s]
            self.stats[s] = (w.mean(), w.std() + 1e-6)
        self.stats["__all__"] = (windows.mean(), windows.std() + 1e-6)
        return self

    def transform(self, windows, sessions):
        out = np.empty_like(windows)
        for s in np.unique(sessions):
            m, sd = self.stats.get(s, self.stats["__all__"])
            out[sessions == s] = (windows[sessions == s] - m) / sd
        return out

    def fit_transform(self, windows, sessions):
        return self.fit(windows, sessions).transform(windows, sessions)
