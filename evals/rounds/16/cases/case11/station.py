import numpy as np


def simulate_station(n_days, seed):
    rng = np.random.default_rng(seed)
    doy = np.arange(n_days) % 365
    temp = -2 + 12 * np.sin(2 * np.pi * (doy - 110) / 365) + rng.normal(0, 3, n_days)
    pdd = np.clip(temp, 0, None)
    precip = rng.gamma(0.6, 6.0, n_days)
    radiation = np.clip(180 + 120 * np.sin(2 * np.pi * (doy - 80) / 365) + rng.normal(0, 40, n_days), 5, None)
    snow_frac = np.clip(0.9 - 0.06 * np.convolve(pdd, np.ones(20) / 20, mode="same")
                        + rng.normal(0, 0.05, n_days), 0, 1)
    ice_area = np.linspace(22.0, 19.0, n_days) + rng.normal(0, 0.1, n_days)
    melt = ice_area * (0.35 * pdd * (1 - 0.6 * snow_frac) + 0.004 * radiation * pdd / (pdd + 1))
    rain = np.where(temp > 1, precip, 0.1 * precip)
    runoff = 0.6 + 0.08 * melt + 0.15 * rain
    runoff = runoff * np.exp(rng.normal(0, 0.12, n_days))
    X = np.column_stack([pdd, precip, radiation, snow_frac, ice_area,
                         np.sin(2 * np.pi * doy / 365), np.cos(2 * np.pi * doy / 365)])
    return X.astype(np.float32), runoff.astype(np.float32)
