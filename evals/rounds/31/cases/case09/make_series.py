import numpy as np

rng = np.random.default_rng(7)
hours = 24 * 200
rain = np.clip(rng.gamma(0.3, 2.0, hours) - 0.8, 0, None)
level = np.zeros(hours)
for t in range(1, hours):
    inflow = 0.4 * rain[max(0, t - 5)] + 0.2 * rain[max(0, t - 10)]
    pump = 0.05 * level[t - 1]
    level[t] = level[t - 1] + inflow - pump + 0.3 * np.sin(2 * np.pi * t / 24) * 0.1 + rng.normal(0, 0.05)
np.savez("series.npz", level=level.astype(np.float32), rain=rain.astype(np.float32))
print("wrote series.npz", hours, "hours")
