"""Synthetic catalogue export, one record per book, exported shelf by shelf."""
import numpy as np

GENRES = ["mystery", "romance", "science", "history", "cooking", "travel", "poetry", "children"]


def export(seed=0, n_books=4000, n_headings=3000):
    rng = np.random.default_rng(seed)
    # every genre prefers its own slice of the heading space, plus a common pool
    pref = rng.dirichlet(np.full(n_headings, 0.05), size=len(GENRES))
    common = rng.dirichlet(np.full(n_headings, 1.0))
    records = []
    for gi, genre in enumerate(GENRES):
        for _ in range(n_books // len(GENRES)):
            k = rng.integers(3, 9)
            mix = 0.75 * pref[gi] + 0.25 * common
            heads = rng.choice(n_headings, size=k, replace=False, p=mix)
            records.append({"genre": genre, "subjects": [f"sh{h:05d}" for h in heads]})
    return records
