import numpy as np


def simulate(cfg):
    rng = np.random.default_rng(cfg["seed"])
    L, Fd = cfg["latent_dim"], cfg["feature_dim"]
    user_z = rng.normal(size=(cfg["n_users"], L))
    item_z = rng.normal(size=(cfg["n_items"], L))
    mix_u = rng.normal(size=(L, Fd)) / np.sqrt(L)
    mix_i = rng.normal(size=(L, Fd)) / np.sqrt(L)
    user_x = user_z @ mix_u + 0.1 * rng.normal(size=(cfg["n_users"], Fd))
    item_x = item_z @ mix_i + 0.1 * rng.normal(size=(cfg["n_items"], Fd))
    popularity = rng.zipf(1.6, size=cfg["n_items"]).clip(max=50).astype(float)

    n_take = cfg["interactions_per_user"] + cfg["heldout_per_user"]
    train, test = [], []
    for u in range(cfg["n_users"]):
        score = 2.0 * (item_z @ user_z[u]) / np.sqrt(L) + 0.5 * np.log(popularity)
        p = np.exp(score - score.max())
        p /= p.sum()
        items = rng.choice(cfg["n_items"], size=n_take, replace=False, p=p)
        train += [(u, i) for i in items[:cfg["interactions_per_user"]]]
        test += [(u, i) for i in items[cfg["interactions_per_user"]:]]
    return (user_x.astype(np.float32), item_x.astype(np.float32),
            np.array(train, dtype=np.int64), np.array(test, dtype=np.int64))


def item_table(item_x, train_pairs):
    """Item features plus log sampling probability for the logQ correction.

    The table is kept in descending popularity order, which makes the head of the
    catalogue contiguous for the serving-side top-k cache.
    """
    counts = np.bincount(train_pairs[:, 1], minlength=len(item_x)).astype(np.float64) + 1.0
    order = np.argsort(-counts, kind="stable")
    log_q = np.log(counts / counts.sum())
    return item_x[order], log_q[order].astype(np.float32)
