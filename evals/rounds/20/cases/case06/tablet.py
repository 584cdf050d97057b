from dataclasses import dataclass

import numpy as np


@dataclass
class Signature:
    signer: int
    pressure: np.ndarray      # (length,)


def _template(rng):
    k = rng.integers(3, 7)
    centers = np.sort(rng.uniform(0.05, 0.95, k))
    widths = rng.uniform(0.03, 0.12, k)
    heights = rng.uniform(0.3, 1.0, k)
    return centers, widths, heights


def record_signatures(n_signers=12, per_signer=60, seed=0):
    rng = np.random.default_rng(seed)
    templates = [_template(np.random.default_rng(100 + s)) for s in range(n_signers)]
    sigs = []
    for s in range(n_signers):
        c, w, h = templates[s]
        base_len = 80 + 15 * s % 60
        for _ in range(per_signer):
            length = int(base_len * rng.uniform(0.7, 1.4))
            u = np.linspace(0, 1, length)
            warp = u + 0.03 * np.sin(2 * np.pi * u * rng.uniform(0.5, 1.5))
            p = sum(hi * np.exp(-0.5 * ((warp - ci - rng.normal(0, 0.015)) / wi) ** 2) for ci, wi, hi in zip(c, w, h))
            p = p * rng.uniform(0.8, 1.2) + rng.normal(0, 0.05, length)
            sigs.append(Signature(s, np.clip(p, 0, None).astype(np.float32)))
    order = rng.permutation(len(sigs))
    return [sigs[i] for i in order]
