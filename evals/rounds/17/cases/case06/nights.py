import numpy as np

STEPS_EVENING = 18     # 18:00-24:00 every 20 min
STEPS_NIGHT = 36       # 18:00-06:00


def simulate_nights(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, 4, STEPS_EVENING), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        t = rng.normal(9, 4)
        dew = t - rng.gamma(2.0, 2.5)
        cloud = np.clip(rng.beta(0.7, 0.9) + rng.normal(0, 0.05, STEPS_NIGHT), 0, 1)
        wind = np.abs(rng.normal(1.5, 1.2) + np.cumsum(rng.normal(0, 0.15, STEPS_NIGHT)))
        temps = np.empty(STEPS_NIGHT)
        for s in range(STEPS_NIGHT):
            cool = 0.55 * (1 - 0.8 * cloud[s]) / (1 + 0.5 * wind[s])
            if t < dew + 0.5:          # condensation releases latent heat
                cool *= 0.35
            t -= cool
            temps[s] = t + rng.normal(0, 0.1)
        X[i, 0] = temps[:STEPS_EVENING] / 5
        X[i, 1] = (dew + rng.normal(0, 0.2, STEPS_EVENING)) / 5
        X[i, 2] = wind[:STEPS_EVENING] / 2
        X[i, 3] = cloud[:STEPS_EVENING]
        y[i] = float(temps.min() < 0.0)
    return X, y
