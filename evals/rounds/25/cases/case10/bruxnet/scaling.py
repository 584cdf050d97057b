import numpy as np


class SessionScaler:
    """Robust per-session scaling: divide by the session's median window RMS."""

    def __init__(self):
        self.scale_ = {}
        self.global_ = 1.0

    def fit(self, windows, session_ids):
        rms = np.sqrt((windows ** 2).mean(axis=1))
        for s in np.unique(session_ids):
            self.scale_[int(s)] = float(np.median(rms[session_ids == s]))
        self.global_ = float(np.median(rms))
        return self

    def transform(self, windows, session_ids):
        out = np.empty_like(windows)
        for i, s in enumerate(session_ids):
            out[i] = windows[i] / self.scale_.get(int(s), self.global_)
        return out
