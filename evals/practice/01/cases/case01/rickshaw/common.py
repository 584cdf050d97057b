import argparse
import os

import numpy as np

from .city import build_graph, make_rides, pad_routes

ART = "artifacts"


def args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    return ap.parse_args()


def world(seed):
    """Graph is fixed by the city; rides depend on the seed."""
    rng = np.random.default_rng(seed)
    edges, feats, secs = build_graph(np.random.default_rng(1234))
    tr_routes, tr_t = make_rides(3000, rng, edges, secs)
    va_routes, va_t = make_rides(800, rng, edges, secs)
    return feats, pad_routes(tr_routes), tr_t, pad_routes(va_routes), va_t
