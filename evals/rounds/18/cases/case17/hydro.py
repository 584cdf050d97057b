import numpy as np

LEVEL, RAIN = 0, 1  # column order of the daily table


def simulate_gauge(days, seed=7):
    """Daily table [days, 2]: spring level (m above datum) and rainfall (mm)."""
    rng = np.random.default_rng(seed)
    doy = np.arange(days) % 365
    wet_season = 0.5 + 0.4 * np.cos(2 * np.pi * (doy - 20) / 365)
    storms = rng.random(days) < 0.12 * wet_season * 2
    rain = storms * rng.exponential(12.0, size=days)

    # recharge arrives through the epikarst with a gamma-shaped delay
    lag = np.arange(40)
    kernel = lag ** 2 * np.exp(-lag / 3.0)
    kernel /= kernel.sum()
    recharge = np.convolve(rain, kernel)[:days]

    et = 0.035 * (1 + np.sin(2 * np.pi * (doy - 100) / 365))
    # unmetered inflow (neighbouring catchments, pumping) shows up as a random drift
    inflow = rng.normal(0, 0.08, size=days)
    level = np.zeros(days)
    level[0] = 4.0
    for t in range(1, days):
        level[t] = (level[t - 1] + 0.02 * recharge[t] - et[t]
                    - 0.01 * (level[t - 1] - 3.0) + inflow[t])
    level += rng.normal(0, 0.03, size=days)
    return np.stack([level, rain], axis=1).astype(np.float32)


def make_windows(table, lookback, horizon):
    """Slice the daily table into (past window, future rain) -> level `horizon` days out."""
    xs, ys = [], []
    for start in range(0, len(table) - lookback - horizon + 1):
        end = start + lookback  # first day after the observed window
        past = table[start:end].reshape(-1)
        future_rain = table[end:end + horizon, LEVEL]
        xs.append(np.concatenate([past, future_rain]))
        ys.append(table[end + horizon - 1, LEVEL])
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32)
