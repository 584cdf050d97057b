"""A synthetic metro: lines as station chains, interchanges, headways, transfer records."""
import numpy as np


def build_network(rng, n_lines=6, stops_per_line=12):
    n_stations = n_lines * stops_per_line
    adj = np.zeros((n_stations, n_stations), dtype=np.float32)
    line_of = np.repeat(np.arange(n_lines), stops_per_line)
    for l in range(n_lines):
        s = l * stops_per_line
        for k in range(stops_per_line - 1):
            adj[s + k, s + k + 1] = adj[s + k + 1, s + k] = 1
    # interchanges: walking links between stations of different lines
    pairs = []
    for _ in range(14):
        a, b = rng.choice(n_stations, 2, replace=False)
        if line_of[a] != line_of[b]:
            adj[a, b] = adj[b, a] = 1
            pairs.append((a, b))
    return adj, line_of, pairs


def spectral_coords(adj, k=8):
    deg = adj.sum(1)
    lap = np.diag(deg) - adj
    vals, vecs = np.linalg.eigh(lap)
    return (vecs[:, 1:k + 1] * np.sqrt(len(adj))).astype(np.float32)


def transfer_records(seed, n_records=12000):
    rng = np.random.default_rng(seed)
    adj, line_of, pairs = build_network(rng)
    n_lines = line_of.max() + 1
    headway_peak = rng.uniform(2, 5, n_lines)
    headway_off = headway_peak * rng.uniform(1.8, 3.0, n_lines)
    depth = rng.uniform(0.5, 4.0, len(adj))          # minutes to reach the platform
    recs = []
    for _ in range(n_records):
        a, b = pairs[rng.integers(len(pairs))]
        if rng.random() < 0.5:
            a, b = b, a
        hour = rng.uniform(5, 24)
        peak = np.exp(-((hour - 8.5) / 1.2) ** 2) + np.exp(-((hour - 17.5) / 1.5) ** 2)
        headway = headway_off[line_of[b]] + (headway_peak[line_of[b]] - headway_off[line_of[b]]) * min(peak, 1)
        walk = depth[a] + depth[b] + rng.gamma(2.0, 0.3)
        wait = 0.5 * headway + rng.normal(0, 0.3)
        crowd = 2.5 * peak * rng.uniform(0.8, 1.2)
        day = rng.integers(0, 30)
        recs.append((a, b, hour, day, walk + wait + crowd))
    return adj, spectral_coords(adj), np.array(recs, dtype=np.float32)
