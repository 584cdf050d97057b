import numpy as np


def mixed_layer(depths, sst, mld, gradient, deep):
    below = np.clip(depths - mld, 0, None)
    return deep + (sst - deep) * np.exp(-gradient * below)


def simulate(n, bins, seed=3):
    rng = np.random.default_rng(seed)
    z = np.linspace(0, 200, bins)
    X, Y = [], []
    for _ in range(n):
        sst, mld = rng.uniform(8, 22), rng.uniform(5, 80)
        grad, deep = rng.uniform(0.01, 0.06), rng.uniform(3, 7)
        p0 = mixed_layer(z, sst, mld, grad, deep)
        wind, flux = rng.uniform(0, 15), rng.uniform(-200, 300)
        # one step of forcing: wind deepens the mixed layer, heat flux warms the surface
        mld1 = mld + 1.5 * wind - 0.04 * max(flux, 0)
        sst1 = sst + 0.004 * flux - 0.05 * wind
        p1 = mixed_layer(z, sst1, max(mld1, 2), grad, deep)
        mld2 = mld1 + 1.5 * wind - 0.04 * max(flux, 0)
        sst2 = sst1 + 0.004 * flux - 0.05 * wind
        p2 = mixed_layer(z, sst2, max(mld2, 2), grad, deep) + rng.normal(0, 0.05, bins)
        X.append(np.concatenate([p0, p1, [wind / 15, flux / 300]]))
        Y.append(p2)
    return np.asarray(X, np.float32), np.asarray(Y, np.float32)
