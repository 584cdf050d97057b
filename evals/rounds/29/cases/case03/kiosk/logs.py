"""Simulated daily logs for one kiosk.

Columns follow the export of the till + sensor box: one row per calendar day.
Sensor dropouts show up as NaN.
"""
import numpy as np

COLUMNS = ["temp_c", "sun_h", "traffic", "price", "weekday"]


def simulate(n_days, dropout_rate, seed):
    rng = np.random.default_rng(seed)
    day = np.arange(n_days)
    season = np.sin(2 * np.pi * (day % 365) / 365.0 - 1.3)
    temp = 18 + 9 * season + rng.normal(0, 3.5, n_days)
    sun = np.clip(6 + 4 * season + rng.normal(0, 2.5, n_days), 0, 14)
    weekday = day % 7
    weekend = (weekday >= 5).astype(float)
    traffic = rng.gamma(6.0, 60.0, n_days) * (1 + 0.6 * weekend)
    price = rng.choice([1.5, 2.0, 2.5, 3.0], n_days)

    cups = (
        4.0 * np.maximum(temp - 12, 0)
        + 3.0 * sun
        + 0.12 * traffic
        - 18.0 * price
        + rng.normal(0, 8, n_days)
    )
    cups = np.maximum(cups, 0).round()

    logs = {"temp_c": temp, "sun_h": sun, "traffic": traffic, "price": price,
            "weekday": weekday.astype(float), "cups": cups}
    # probe / counter outages
    for col in ("temp_c", "traffic"):
        gone = rng.random(n_days) < dropout_rate / 2
        logs[col] = np.where(gone, np.nan, logs[col])
    return logs
