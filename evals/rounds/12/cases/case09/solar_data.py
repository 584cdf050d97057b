"""Hourly PV output for a handful of sites with weather-forecast covariates."""
import numpy as np

FEATURES = ["hour_sin", "hour_cos", "doy_sin", "doy_cos", "sun_elev", "cloud", "temp_c",
            "humidity", "yday_power"]


def sun_elevation(hour, doy, lat_deg):
    decl = np.radians(23.44) * np.sin(2 * np.pi * (doy - 81) / 365)
    lat = np.radians(lat_deg)
    ha = np.radians(15 * (hour - 12))
    s = np.sin(lat) * np.sin(decl) + np.cos(lat) * np.cos(decl) * np.cos(ha)
    return np.degrees(np.arcsin(s))


def make_sites(n_sites=6, n_days=240, seed=0):
    rng = np.random.default_rng(seed)
    rows, power, daylight, day_of_row = [], [], [], []
    for s in range(n_sites):
        lat = rng.uniform(35, 55)
        tilt_gain = rng.uniform(0.8, 1.1)
        cloud_day = rng.beta(1.2, 1.5, n_days)
        prev = np.zeros(24)
        for d in range(n_days):
            doy = (d * 1.5) % 365
            hours = np.arange(24)
            elev = sun_elevation(hours, doy, lat)
            cloud = np.clip(cloud_day[d] + rng.normal(0, 0.12, 24), 0, 1)
            temp = 12 + 10 * np.sin(2 * np.pi * (doy - 100) / 365) + 0.3 * np.clip(elev, 0, None) \
                + rng.normal(0, 1.5, 24)
            hum = np.clip(0.5 + 0.4 * cloud + rng.normal(0, 0.08, 24), 0, 1)
            clear = np.clip(np.sin(np.radians(elev)), 0, None) ** 1.2
            p = tilt_gain * clear * (1 - 0.8 * cloud ** 2) * (1 - 0.004 * (temp - 25))
            p = np.clip(p + rng.normal(0, 0.02, 24) * (elev > 0), 0, None)
            feats = np.stack([np.sin(2 * np.pi * hours / 24), np.cos(2 * np.pi * hours / 24),
                              np.full(24, np.sin(2 * np.pi * doy / 365)),
                              np.full(24, np.cos(2 * np.pi * doy / 365)),
                              elev / 60, cloud, temp / 20, hum, prev], axis=1)
            rows.append(feats)
            power.append(p)
            daylight.append(elev > 0)
            day_of_row.append(np.full(24, d))
            prev = p
    X = np.concatenate(rows).astype(np.float32)
    y = np.concatenate(power).astype(np.float32)
    return X, y, np.concatenate(daylight), np.concatenate(day_of_row)
