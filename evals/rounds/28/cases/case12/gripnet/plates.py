import numpy as np

HOLDS = ["crimp", "sloper", "pinch", "jug", "pocket"]
T = 100

# (shear ratio, lateral squeeze, normal-force tremor, torque bias)
PROFILE = {
    "crimp": (0.35, 0.05, 0.18, 0.6),
    "sloper": (0.85, 0.05, 0.05, 0.1),
    "pinch": (0.30, 0.70, 0.08, 0.0),
    "jug": (0.15, 0.05, 0.04, 0.2),
    "pocket": (0.40, 0.15, 0.25, -0.5),
}


def trace(hold, rng):
    shear, squeeze, tremor, torque = PROFILE[hold]
    t = np.linspace(0, 1, T)
    load = rng.uniform(300, 650) * (1 - np.exp(-t * rng.uniform(6, 12)))
    fz = load * (1 + tremor * np.sin(2 * np.pi * rng.uniform(8, 12) * t))
    fx = shear * load * rng.uniform(0.8, 1.2)
    fy = squeeze * load * rng.choice([-1, 1])
    mz = torque * 0.05 * load
    mx = 0.02 * fy + rng.normal(0, 1, T)
    my = 0.02 * fx + rng.normal(0, 1, T)
    x = np.stack([fx, fy, fz, mx, my, mz]) + rng.normal(0, 8, (6, T))
    return x


def make_dataset(per_class, seed):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k, h in enumerate(HOLDS):
        for _ in range(per_class):
            X.append(trace(h, rng))
            y.append(k)
    X = np.stack(X).astype(np.float32) / 300.0      # body-weight-ish units
    return X, np.array(y)
