import numpy as np


def simulate_track(n_steps, seed):
    """Returns displacements (n_steps, 2), float32."""
    rng = np.random.default_rng(seed)
    heading = rng.uniform(0, 2 * np.pi)
    fast = True
    out = np.empty((n_steps, 2), dtype=np.float32)
    for t in range(n_steps):
        if rng.random() < 0.02:
            fast = not fast
        if rng.random() < 0.08:
            heading += rng.choice([-1.0, 1.0]) * np.pi / 3          # sharp turn
        heading += 0.05 * rng.normal()
        speed = (1.0 if fast else 0.3) * (1 + 0.05 * rng.normal())
        out[t] = speed * np.cos(heading), speed * np.sin(heading)
    return out
