import numpy as np

CLASSES = {"chondrite": 3.35, "achondrite": 3.1, "stony-iron": 4.8, "iron": 7.8}


def simulate(n, seed=0):
    rng = np.random.default_rng(seed)
    cls = rng.integers(0, 4, n)
    dens = np.array(list(CLASSES.values()))[cls] * rng.uniform(0.93, 1.07, n)
    a = np.exp(rng.uniform(np.log(1.0), np.log(30.0), n))         # cm
    b = a * rng.uniform(0.5, 1.0, n)
    c = b * rng.uniform(0.4, 1.0, n)
    shape = rng.uniform(0.45, 0.6, n)                               # fill factor of the box
    mass = dens * a * b * c * shape                                 # grams
    chi = np.log10(1 + 50 * (cls >= 2) + rng.gamma(2, 2, n))
    crust = rng.uniform(0, 1, n)
    weather = rng.integers(0, 6, n)
    onehot = np.eye(4)[cls]
    X = np.column_stack([np.log10(a), np.log10(b), np.log10(c), chi, crust, weather / 5.0, onehot])
    return X.astype(np.float32), np.log10(mass).astype(np.float32)
