"""Point-mass projectile with quadratic drag, integrated with semi-implicit Euler."""
import numpy as np

G = 9.81


def simulate_range(v0, elev_deg, h0, k_drag, wind, dt=0.01, t_max=40.0):
    th = np.deg2rad(elev_deg)
    x = np.zeros_like(v0)
    y = h0.astype(np.float64).copy()
    vx = v0 * np.cos(th)
    vy = v0 * np.sin(th)
    landed = np.zeros(v0.shape, dtype=bool)
    rng_out = np.zeros_like(v0)
    for _ in range(int(t_max / dt)):
        rel_vx = vx + wind                      # head-wind opposes motion
        speed = np.sqrt(rel_vx ** 2 + vy ** 2)
        ax = -k_drag * speed * rel_vx
        ay = -G - k_drag * speed * vy
        vx = np.where(landed, vx, vx + ax * dt)
        vy = np.where(landed, vy, vy + ay * dt)
        x_new = np.where(landed, x, x + vx * dt)
        y_new = np.where(landed, y, y + vy * dt)
        hit = (~landed) & (y_new <= 0)
        # linear interpolation to the ground crossing
        frac = np.where(hit, y / np.maximum(y - y_new, 1e-9), 0.0)
        rng_out = np.where(hit, x + frac * (x_new - x), rng_out)
        landed |= hit
        x, y = x_new, y_new
        if landed.all():
            break
    return np.where(landed, rng_out, x)


def sample_launches(n, rng):
    v0 = rng.uniform(10, 60, n)
    elev = rng.uniform(5, 75, n)
    h0 = rng.uniform(0, 20, n)
    k = 10 ** rng.uniform(-3.5, -1.8, n)
    wind = rng.normal(0, 4, n)
    return np.stack([v0, elev, h0, k, wind], axis=1)
