"""Simulated trip log, one dict per trip (mirrors the open-data export)."""
import numpy as np

N_ZONES = 30


def simulate_trips(n, seed):
    rng = np.random.default_rng(seed)
    zone_xy = rng.uniform(0, 12, size=(N_ZONES, 2))
    zone_busy = rng.uniform(0.8, 1.4, N_ZONES)
    rows = []
    for _ in range(n):
        pu, do = rng.integers(0, N_ZONES, 2)
        straight = np.linalg.norm(zone_xy[pu] - zone_xy[do]) + rng.uniform(0.3, 1.0)
        distance = straight * rng.uniform(1.1, 1.5)
        hour = int(rng.integers(0, 24))
        weekday = int(rng.integers(0, 7))
        rush = 1.35 if (7 <= hour <= 9 or 16 <= hour <= 19) and weekday < 5 else 1.0
        night = 1.0 if 6 <= hour <= 21 else 1.2
        minutes = distance * 2.2 * rush * zone_busy[do] + rng.exponential(3)
        fare = 3.0 + 1.75 * distance + 0.45 * minutes
        fare = round(fare * night, 2)
        tolls = 6.5 if (distance > 9 and rng.random() < 0.4) else 0.0
        tip = round(fare * rng.choice([0.0, 0.1, 0.15, 0.2], p=[0.3, 0.2, 0.3, 0.2]), 2)
        rows.append({
            "pickup_zone": int(pu), "dropoff_zone": int(do), "trip_distance": round(distance, 2),
            "hour": hour, "weekday": weekday, "passengers": int(rng.integers(1, 5)),
            "fare": fare, "tip": tip, "tolls": tolls, "total": round(fare + tip + tolls, 2),
        })
    return rows
