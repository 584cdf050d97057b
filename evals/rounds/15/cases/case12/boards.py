import numpy as np

BLACK, WHITE, DAME = 0, 1, 2


def ownership(board):
    """board: (S,S) int8 with 0 empty, 1 black, 2 white -> (S,S) labels."""
    S = board.shape[0]
    ys, xs = np.nonzero(board)
    if len(ys) == 0:
        return np.full((S, S), DAME, dtype=np.int64)
    gy, gx = np.mgrid[0:S, 0:S]
    d = np.abs(gy[..., None] - ys) + np.abs(gx[..., None] - xs)  # (S,S,n_stones)
    colors = board[ys, xs]
    inf = 10 ** 6
    db = np.where(colors == 1, d, inf).min(-1)
    dw = np.where(colors == 2, d, inf).min(-1)
    out = np.full((S, S), DAME, dtype=np.int64)
    out[db < dw] = BLACK
    out[dw < db] = WHITE
    return out


def encode(board):
    """Three input planes: black stones, white stones, empty points."""
    return np.stack([board == 1, board == 2, board == 0]).astype(np.float32)


def random_positions(n, size, density, seed):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for _ in range(n):
        p = rng.uniform(*density)
        occ = rng.random((size, size)) < p
        col = rng.integers(1, 3, size=(size, size))
        b = (occ * col).astype(np.int8)
        xs.append(encode(b))
        ys.append(ownership(b))
    return np.stack(xs), np.stack(ys)
