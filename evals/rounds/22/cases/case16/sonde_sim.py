import numpy as np

LEVELS_KM = np.linspace(8.0, 1.25, 28)      # top first, as the sonde falls


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    z = LEVELS_KM[None, :]
    vmax = rng.uniform(20, 65, (n, 1))
    direction = rng.uniform(0, 2 * np.pi, (n, 1))
    veer = rng.normal(0.0, 0.35, (n, 1))         # rad over the profile
    decay = rng.uniform(0.04, 0.12, (n, 1))
    speed = vmax * np.exp(-decay * z) * (1 + 0.05 * rng.normal(size=(n, 28)))
    ang = direction + veer * (z / 8.0)
    u = speed * np.cos(ang) + rng.normal(0, 1.0, (n, 28))
    v = speed * np.sin(ang) + rng.normal(0, 1.0, (n, 28))
    temp = 26 - 6.5 * z + rng.normal(0, 0.5, (n, 28))
    rh = np.clip(90 - 4 * z + rng.normal(0, 5, (n, 28)), 5, 100)
    # surface wind: reduced by friction, turned towards low pressure
    sfc_speed = speed[:, -1:] * rng.uniform(0.7, 0.8, (n, 1))
    sfc_ang = ang[:, -1:] + 0.35 + veer * 0.3
    target = np.concatenate([sfc_speed * np.cos(sfc_ang), sfc_speed * np.sin(sfc_ang)], 1)
    profile = np.stack([u, v, temp, rh], axis=2)          # (n, levels, channels)
    return profile.astype(np.float32), target.astype(np.float32)
