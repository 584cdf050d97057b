"""Simulate one season of food-truck logs and write them to logs/fleet.npz."""
import os

import numpy as np

N_TRUCKS = 12
N_DAYS = 300
SEED = 11


def simulate(seed=SEED):
    rng = np.random.default_rng(seed)
    temp = 18 + 8 * np.sin(np.arange(N_DAYS) / 58.0) + rng.normal(0, 2.5, N_DAYS)
    rain = (rng.random(N_DAYS) < 0.25).astype(float)
    weekday = np.arange(N_DAYS) % 7
    logs = {}
    order = rng.permutation(N_TRUCKS)  # the app exports trucks in sign-up order
    for t in order:
        name = f"truck_{t:02d}"
        footfall = rng.gamma(3.0, 1.0, N_DAYS)
        event = (rng.random(N_DAYS) < 0.15).astype(float)
        price = rng.normal(0, 1, N_DAYS)
        base = rng.normal(6.0, 0.5)
        sales = (base + 0.9 * np.log1p(footfall) * 2 + 1.6 * event - 0.7 * price
                 + 0.05 * (temp - 18) - 0.5 * rain + 0.4 * (weekday >= 5)
                 + rng.normal(0, 0.45, N_DAYS))
        # sensor outages: footfall counter and thermometer drop out for a day or two
        t_obs = temp.copy()
        f_obs = footfall.copy()
        gaps = rng.random(N_DAYS) < 0.08
        f_obs[gaps] = np.nan
        t_obs[rng.random(N_DAYS) < 0.05] = np.nan
        logs[name] = dict(footfall=f_obs, event=event, price=price, temp=t_obs,
                          rain=rain, weekday=weekday.astype(float), sales=sales)
    return logs


if __name__ == "__main__":
    os.makedirs("logs", exist_ok=True)
    logs = simulate()
    flat = {f"{name}/{col}": arr for name, rec in logs.items() for col, arr in rec.items()}
    np.savez("logs/fleet.npz", names=np.array(list(logs)), **flat)
    print(f"wrote {len(logs)} trucks x {len(next(iter(logs.values()))['sales'])} days")
