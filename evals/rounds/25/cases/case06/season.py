import numpy as np


def simulate_season(pool, n_nights, max_team, n_cat, rng):
    """Returns member ids [N, max_team] (-1 = empty seat), round mix [N, n_cat], score [N]."""
    skill = rng.gamma(2.0, 0.5, (pool, n_cat))           # latent knowledge per category
    members = np.full((n_nights, max_team), -1, dtype=np.int64)
    mix = rng.dirichlet(np.ones(n_cat) * 0.5, n_nights).astype(np.float32)
    score = np.zeros(n_nights, dtype=np.float32)
    for i in range(n_nights):
        k = rng.integers(2, max_team + 1)
        team = rng.choice(pool, k, replace=False)
        members[i, :k] = team
        best = skill[team].max(0)                          # the best person answers
        breadth = skill[team].mean(0)
        strength = (mix[i] * (0.8 * best + 0.2 * breadth)).sum()
        score[i] = 60 / (1 + np.exp(-(strength - 1.8) * 1.6)) + rng.normal(0, 1.5)
    return members, mix, score
