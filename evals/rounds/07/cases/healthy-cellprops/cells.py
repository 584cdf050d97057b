import numpy as np

from chem_table import descriptor_table

TARGETS = ["capacity_ah", "resistance_mohm", "temp_rise_k"]


def generate(n, seed):
    rng = np.random.default_rng(seed)
    chem = rng.integers(0, 6, n)
    desc = descriptor_table()[chem]
    cycles = rng.uniform(50, 2000, n)
    c_rate = rng.uniform(0.2, 3.0, n)
    dod = rng.uniform(0.2, 1.0, n)
    t_amb = rng.uniform(5, 45, n)
    v_max = rng.uniform(4.0, 4.3, n)
    rest_h = rng.uniform(0, 12, n)
    x = np.stack([np.log(cycles), c_rate, dod, t_amb, v_max, rest_h,
                  c_rate * dod, (t_amb - 25) ** 2 / 100, np.sqrt(cycles) / 10], 1).astype(np.float32)
    fade = 1e-4 * cycles * (1 + 0.5 * c_rate) * dod * np.exp((t_amb - 25) / 30) * (1 + 0.3 * desc[:, 0])
    cap = 3.0 * (1 + 0.1 * desc[:, 1]) * np.exp(-fade)
    res = 25 * (1 + 0.2 * desc[:, 2]) * (1 + 0.8 * fade) + 2 * (v_max - 4.0) * 10
    trise = 4 * c_rate ** 2 * res / 25 + 0.05 * (45 - t_amb) * desc[:, 3] ** 2
    y = np.stack([cap, res, trise], 1)
    y = y * (1 + 0.02 * rng.normal(size=y.shape))
    return x, chem.astype(np.int64), y.astype(np.float32)
