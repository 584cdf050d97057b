import numpy as np

REGIONS = ["north", "south", "east", "west", "metro"]


def simulate(n, gamma_shape, seed):
    """Returns (features float32 [n, d], claim amount float32 [n])."""
    rng = np.random.default_rng(seed)
    driver_age = rng.uniform(18, 80, n)
    vehicle_value = rng.lognormal(9.8, 0.5, n)          # ~18k
    vehicle_age = rng.integers(0, 20, n).astype(float)
    region = rng.integers(0, len(REGIONS), n)
    prior_claims = rng.poisson(0.4, n).astype(float)

    log_mu = (7.2
              + 0.6 * (np.log(vehicle_value) - 9.8)
              - 0.03 * vehicle_age
              + 0.5 * np.exp(-(driver_age - 18) / 8.0)
              + 0.15 * prior_claims
              + np.array([0.0, -0.1, 0.05, -0.2, 0.35])[region])
    mu = np.exp(log_mu)
    amount = rng.gamma(gamma_shape, mu / gamma_shape)

    onehot = np.eye(len(REGIONS))[region]
    x = np.column_stack([
        (driver_age - 45) / 18,
        np.log(vehicle_value) - 9.8,
        (vehicle_age - 10) / 6,
        prior_claims,
        onehot,
    ])
    return x.astype(np.float32), amount.astype(np.float32)
