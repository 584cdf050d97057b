import numpy as np

N_NOTES = 60          # ids 1..60, 0 = padding
N_FAMILIES = 6        # citrus, floral, woody, oriental, fresh, gourmand
N_PERFUMES = 250
MAX_NOTES = 6
MAX_HISTORY = 24


def build_catalog(seed=1):
    rng = np.random.default_rng(seed)
    note_family = rng.integers(0, N_FAMILIES, N_NOTES + 1)
    perfumes = np.zeros((N_PERFUMES, MAX_NOTES), np.int64)
    main_family = rng.integers(0, N_FAMILIES, N_PERFUMES)
    for p in range(N_PERFUMES):
        k = rng.integers(3, MAX_NOTES + 1)
        fam_notes = np.nonzero(note_family[1:] == main_family[p])[0] + 1
        n_main = min(k - 1, len(fam_notes))
        chosen = list(rng.choice(fam_notes, n_main, replace=False))
        while len(chosen) < k:
            c = int(rng.integers(1, N_NOTES + 1))
            if c not in chosen:
                chosen.append(c)
        perfumes[p, :k] = chosen
    popularity = rng.zipf(1.6, N_PERFUMES).clip(max=50).astype(np.float64)
    return perfumes, main_family, popularity


def simulate_customers(n, seed, catalog):
    perfumes, family, popularity = catalog
    rng = np.random.default_rng(seed)
    hist = np.zeros((n, MAX_HISTORY), np.int64)
    target = np.zeros(n, np.int64)
    for i in range(n):
        taste = rng.dirichlet(np.full(N_FAMILIES, 0.3))
        w = taste[family] * popularity ** 0.5
        w = w / w.sum()
        owned = rng.choice(N_PERFUMES, rng.integers(2, 5), replace=False, p=w)
        notes = np.unique(perfumes[owned][perfumes[owned] > 0])[:MAX_HISTORY]
        rng.shuffle(notes)
        hist[i, :len(notes)] = notes
        w2 = w.copy()
        w2[owned] = 0
        target[i] = rng.choice(N_PERFUMES, p=w2 / w2.sum())
    return hist, target
