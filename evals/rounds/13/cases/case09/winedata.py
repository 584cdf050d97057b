import numpy as np

FEATURES = ["fixed_acidity", "volatile_acidity", "citric_acid", "residual_sugar", "chlorides",
            "free_so2", "total_so2", "density", "ph", "sulphates", "alcohol"]
MIN_GRADE, MAX_GRADE = 3, 8


def tasting_panel(n, seed):
    rng = np.random.default_rng(seed)
    means = np.array([7.5, 0.5, 0.3, 5.0, 0.06, 30, 110, 0.995, 3.3, 0.6, 10.5])
    scales = np.array([1.2, 0.15, 0.15, 3.0, 0.02, 12, 40, 0.002, 0.15, 0.15, 1.1])
    z = rng.normal(size=(n, len(FEATURES)))
    z[:, 7] = -0.6 * z[:, 10] + 0.8 * z[:, 7]            # density falls with alcohol
    x = means + scales * z
    latent = (1.1 * z[:, 10] - 0.8 * z[:, 1] + 0.5 * z[:, 9] - 0.3 * z[:, 4]
              + 0.4 * np.tanh(z[:, 2] * z[:, 8]) + rng.normal(0, 0.45, n))
    cuts = np.array([-2.2, -1.2, 0.0, 1.1, 2.1])
    grade = MIN_GRADE + (latent[:, None] > cuts).sum(1)
    return x.astype(np.float32), grade.astype(np.int64)
