import random

N_INGREDIENTS = 80
N_CUISINES = 8


def _cores(seed):
    rng = random.Random(seed)
    cores = []
    for c in range(N_CUISINES):
        # each cuisine: 10 signature ingredients, a few shared staples overlap between cuisines
        own = list(range(c * 9, c * 9 + 9))
        cores.append(own + [72 + rng.randrange(8)])
    return cores


def make_blends(n, seed, core_seed=0, size=6):
    rng = random.Random(seed)
    cores = _cores(core_seed)
    blends, cuisines = [], []
    for _ in range(n):
        c = rng.randrange(N_CUISINES)
        items = rng.sample(cores[c], size - 1)
        extra = rng.randrange(N_INGREDIENTS)
        while extra in items:
            extra = rng.randrange(N_INGREDIENTS)
        items.append(extra)
        rng.shuffle(items)
        blends.append(items)
        cuisines.append(c)
    return blends, cuisines
