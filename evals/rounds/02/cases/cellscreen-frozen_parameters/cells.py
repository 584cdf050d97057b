import numpy as np

DEFECTS = ["ok", "dry_out", "plating", "micro_short"]


def simulate_cells(n, n_features, seed, world_seed=31):
    world = np.random.default_rng(world_seed)
    mix = world.normal(size=(6, n_features)) / np.sqrt(6)
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 6))                        # process variables
    x = latent @ mix + 0.3 * rng.normal(size=(n, n_features))
    # capacity: interactions between process variables
    cap = (np.sin(1.5 * latent[:, 0]) * latent[:, 1] + latent[:, 2] * latent[:, 3]
           + 0.5 * np.abs(latent[:, 4]) + 0.1 * rng.normal(size=n))
    # defect type: regions of the latent process space
    score = np.stack([
        np.zeros(n),
        2.0 * (latent[:, 0] * latent[:, 5]) - 1.0,
        2.0 * (latent[:, 1] ** 2 - latent[:, 3] ** 2) - 1.0,
        2.5 * np.cos(2.0 * latent[:, 2]) * latent[:, 4] - 1.0,
    ], 1)
    defect = np.argmax(score + 0.3 * rng.normal(size=score.shape), 1)
    return x.astype(np.float32), cap.astype(np.float32), defect.astype(np.int64)
