"""Toy precipitation fields: Gaussian cells drifting with a per-sequence wind,
slowly growing or decaying. Output array: (n_seq, n_frames, H, W) in [0, ~1]."""
import numpy as np

H = W = 12


def simulate(n_seq, n_frames, seed):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    out = np.zeros((n_seq, n_frames, H, W), dtype=np.float32)
    for s in range(n_seq):
        angle, speed = rng.uniform(0, 2 * np.pi), rng.uniform(0.8, 1.8)
        wind = speed * np.array([np.sin(angle), np.cos(angle)])
        n_cells = rng.integers(1, 4)
        pos = rng.uniform(0, H, size=(n_cells, 2))
        amp = rng.uniform(0.4, 1.0, size=n_cells)
        width = rng.uniform(1.0, 2.0, size=n_cells)
        growth = rng.uniform(-0.05, 0.05, size=n_cells)
        for t in range(n_frames):
            p = pos + t * wind
            field = np.zeros((H, W), dtype=np.float32)
            for k in range(n_cells):
                cy, cx = p[k] % H             # periodic domain
                dy = np.minimum(np.abs(yy - cy), H - np.abs(yy - cy))
                dx = np.minimum(np.abs(xx - cx), W - np.abs(xx - cx))
                field += amp[k] * (1 + growth[k]) ** t * np.exp(-(dy ** 2 + dx ** 2) / (2 * width[k] ** 2))
            out[s, t] = field
    return out
