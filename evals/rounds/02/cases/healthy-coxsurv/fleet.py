import numpy as np

SMART = ["reallocated", "pending", "uncorrectable", "power_on_kh", "temp_c", "spin_retry",
         "seek_err_rate", "load_cycles_k"]


def simulate_fleet(n, censor_rate, seed):
    rng = np.random.default_rng(seed)
    x = np.stack([
        rng.poisson(0.5, n) * rng.exponential(3, n),
        rng.poisson(0.3, n),
        rng.poisson(0.2, n),
        rng.uniform(1, 60, n),
        rng.normal(38, 5, n),
        rng.poisson(0.1, n),
        rng.normal(0, 1, n),
        rng.uniform(1, 300, n),
    ], 1)
    log_hr = (0.8 * np.log1p(x[:, 0]) + 0.9 * np.minimum(x[:, 1], 3) + 0.7 * np.minimum(x[:, 2], 3)
              + 0.03 * x[:, 3] + 0.08 * np.maximum(x[:, 4] - 40, 0) + 0.5 * np.tanh(x[:, 6]) ** 2)
    shape = 1.3
    scale = 400 * np.exp(-log_hr / shape)
    t_fail = scale * rng.weibull(shape, n)
    t_cens = rng.exponential(1 / censor_rate, n)
    time = np.minimum(t_fail, t_cens)
    event = (t_fail <= t_cens).astype(np.float32)
    return x.astype(np.float32), time.astype(np.float32), event
