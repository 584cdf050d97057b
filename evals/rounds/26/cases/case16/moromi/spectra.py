import numpy as np

N_BANDS = 80
N_GRADES = 5


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    grade = rng.integers(0, N_GRADES, n)
    maturity = grade + rng.uniform(-0.45, 0.45, n)          # continuous ripeness
    wl = np.linspace(0, 1, N_BANDS)
    base = 0.4 + 0.3 * wl
    browning = -0.08 * maturity[:, None] * (1 - wl)          # darker in the blue end
    amino = 0.05 * maturity[:, None] * np.exp(-((wl - 0.62) / 0.05) ** 2)
    sugar = 0.2 * (4 - maturity[:, None]) / 4 * np.exp(-((wl - 0.35) / 0.06) ** 2)
    scatter = rng.normal(1.0, 0.08, (n, 1)) * (1 + rng.normal(0, 0.05, (n, 1)) * wl)
    spec = (base + browning + amino + sugar) * scatter + rng.normal(0, 0.01, (n, N_BANDS))
    return spec.astype(np.float32), grade
