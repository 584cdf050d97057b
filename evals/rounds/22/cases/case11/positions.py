import numpy as np

from board import INCIDENCE


def heuristic(board):
    w = (board == 1).astype(np.float32)
    b = (board == -1).astype(np.float32)
    mw, mb = INCIDENCE @ w, INCIDENCE @ b
    open_w = ((mw == 2) & (mb == 0)).sum()
    open_b = ((mw == 0) & (mb == 2)).sum()
    return (w.sum() - b.sum()) + 1.5 * ((mw == 3).sum() - (mb == 3).sum()) + 0.8 * (open_w - open_b)


def sample(n, seed):
    rng = np.random.default_rng(seed)
    boards = np.zeros((n, 24), np.int64)
    y = np.zeros(n, np.int64)
    for i in range(n):
        nw, nb = rng.integers(3, 10), rng.integers(3, 10)
        pts = rng.permutation(24)
        boards[i, pts[:nw]] = 1
        boards[i, pts[nw:nw + nb]] = -1
        v = heuristic(boards[i]) + rng.normal(0, 0.7)
        y[i] = 0 if v < -1.5 else (2 if v > 1.5 else 1)
    return boards, y
