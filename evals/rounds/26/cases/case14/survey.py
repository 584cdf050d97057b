import numpy as np

FEATURES = ["humidity", "air_temp", "lux", "midge_density", "stream_dist_m",
            "ceiling_h_m", "drip_rate", "airflow"]


def simulate(n=5000, seed=0):
    rng = np.random.default_rng(seed)
    humidity = rng.uniform(70, 100, n)
    air_temp = rng.normal(12, 2.5, n)
    lux = np.exp(rng.normal(-2, 1.5, n))
    midge = rng.gamma(2.0, 30.0, n)
    stream = rng.exponential(15.0, n)
    ceiling = rng.uniform(0.5, 6.0, n)
    drip = rng.gamma(1.5, 2.0, n)
    airflow = rng.exponential(0.3, n)

    eta = (1.2 + 0.06 * (humidity - 85) - 0.08 * (air_temp - 12) ** 2 / 4
           - 0.9 * np.log1p(lux * 50) + 0.6 * np.log1p(midge / 20)
           - 0.04 * stream + 0.25 * np.log(ceiling) - 1.5 * airflow
           + 0.5 * np.sin(drip))
    counts = rng.poisson(np.exp(eta + 1.0))
    x = np.stack([humidity, air_temp, lux, midge, stream, ceiling, drip, airflow], 1)
    return x.astype(np.float32), counts.astype(np.float32)
