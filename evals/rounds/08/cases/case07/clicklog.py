import zlib

import numpy as np

FIELDS = {"segment": 20, "ad_category": 15, "hour": 24, "device": 4, "site": 50}
CROSSES = [("segment", "ad_category"), ("device", "hour")]


def simulate_log(n, seed, world_seed=0):
    """Impressions are sampled with `seed`; the click model itself (the 'world')
    is fixed by `world_seed` so train and validation logs share it."""
    world = np.random.default_rng(world_seed)
    aff = world.standard_normal((FIELDS["segment"], FIELDS["ad_category"])) * 1.4
    hour_eff = 0.6 * np.sin(2 * np.pi * np.arange(24) / 24)
    dev_hour = world.standard_normal((4, 24)) * 0.5
    site_eff = world.standard_normal(50) * 0.4
    rng = np.random.default_rng(seed)
    cols = {f: rng.integers(0, k, n) for f, k in FIELDS.items()}
    logit = (-2.0 + aff[cols["segment"], cols["ad_category"]] + hour_eff[cols["hour"]]
             + dev_hour[cols["device"], cols["hour"]] + site_eff[cols["site"]])
    clicks = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return cols, clicks


def stable_hash(s, n_buckets):
    return zlib.crc32(s.encode()) % n_buckets


def wide_indices(cols, n_buckets):
    """Hashed ids for every raw field and every cross. Collisions are expected
    and accepted (that is the point of the hashing trick)."""
    n = len(next(iter(cols.values())))
    out = []
    for f in FIELDS:
        out.append([stable_hash(f"{f}={v}", n_buckets) for v in cols[f]])
    for a, b in CROSSES:
        out.append([stable_hash(f"{a}={va}&{b}={vb}", n_buckets) for va, vb in zip(cols[a], cols[b])])
    return np.array(out, dtype=np.int64).T.reshape(n, -1)
