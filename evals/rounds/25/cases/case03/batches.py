import numpy as np

N_STAGES = 5


def simulate(n, rng):
    """Stages are reported 1..5, as on the brewery's sheets."""
    age = rng.uniform(0, 1, n)                        # latent maturity
    stage = np.clip((age * N_STAGES).astype(int) + 1, 1, N_STAGES)
    ph = 6.0 - 1.2 * age + rng.normal(0, 0.08, n)
    salt = rng.uniform(10, 13, n)
    L = 70 - 40 * age ** 1.3 + rng.normal(0, 2.5, n)
    a = 2 + 12 * age + rng.normal(0, 1.0, n)
    b = 20 + 10 * np.sin(np.pi * age) + rng.normal(0, 1.5, n)
    glu = 0.3 + 1.5 * age - 0.05 * (salt - 11.5) + rng.normal(0, 0.1, n)
    temp_days = 180 * age * rng.uniform(0.8, 1.2, n)
    x = np.stack([ph, salt, L, a, b, glu, temp_days / 100], 1).astype(np.float32)
    return x, stage.astype(np.int64)
