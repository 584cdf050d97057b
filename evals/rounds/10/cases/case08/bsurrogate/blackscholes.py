import math

import numpy as np


def _norm_cdf(x):
    return 0.5 * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def call_price(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    return S * _norm_cdf(d1) - K * np.exp(-r * T) * _norm_cdf(d2)


def sample_contracts(n, rng):
    K = np.full(n, 100.0)
    S = K * np.exp(rng.uniform(-0.4, 0.4, n))
    T = rng.uniform(0.05, 2.0, n)
    r = rng.uniform(0.0, 0.06, n)
    sigma = rng.uniform(0.1, 0.6, n)
    return {"S": S, "K": K, "T": T, "r": r, "sigma": sigma}
