"""Synthetic old-town street graph and rides."""
import numpy as np

GRID = 9
FEATS = ["length_m", "slope_pct", "cobbles", "crowding", "nbr_crowding", "lanes"]


def build_graph(rng):
    edges = []
    for r in range(GRID):
        for c in range(GRID):
            u = r * GRID + c
            if c + 1 < GRID:
                edges.append((u, u + 1))
            if r + 1 < GRID:
                edges.append((u, u + GRID))
    E = len(edges)
    length = rng.uniform(60, 420, E)
    slope = np.abs(rng.normal(0, 3.0, E))
    cobbles = (rng.random(E) < 0.35).astype(float)
    crowding = rng.gamma(2.0, 15.0, E)                   # pedestrians per 100 m
    lanes = rng.integers(1, 3, E).astype(float)
    # neighbour aggregation: mean crowding of segments sharing a node
    nbr = np.zeros(E)
    for i, (a, b) in enumerate(edges):
        touching = [j for j, (x, y) in enumerate(edges) if j != i and {x, y} & {a, b}]
        nbr[i] = crowding[touching].mean()
    feats = np.stack([length, slope, cobbles, crowding, nbr, lanes], 1).astype(np.float32)
    # ground-truth seconds per segment
    speed = 4.5 / (1 + 0.08 * slope + 0.3 * cobbles) / (1 + 0.012 * crowding + 0.006 * nbr) * (1 + 0.15 * (lanes - 1))
    secs = length / speed
    return edges, feats, secs


def random_route(rng, edges, max_len=14):
    """Random walk without immediate reversal; returns edge ids."""
    adj = {}
    for i, (a, b) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    node = int(rng.integers(GRID * GRID))
    route, prev = [], None
    for _ in range(int(rng.integers(3, max_len + 1))):
        opts = [(e, n) for e, n in adj[node] if e != prev]
        e, node = opts[rng.integers(len(opts))]
        route.append(e)
        prev = e
    return route


def make_rides(n, rng, edges, secs, max_len=14):
    routes = [random_route(rng, edges, max_len) for _ in range(n)]
    times = np.array([secs[r].sum() * rng.lognormal(0, 0.04) for r in routes], np.float32)
    return routes, times


def pad_routes(routes, max_len=14):
    idx = np.zeros((len(routes), max_len), np.int64)
    mask = np.zeros((len(routes), max_len), np.float32)
    for i, r in enumerate(routes):
        idx[i, : len(r)] = r
        mask[i, : len(r)] = 1
    return idx, mask
