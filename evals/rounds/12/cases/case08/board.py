"""6x6 mini-chess move legality.

Input planes (6x6 each):
  0-4  one-hot piece at the origin square: rook, bishop, knight, king, queen
  5    own blockers
  6    destination square
Label: 1 if the piece can legally move from origin to destination
(no jumping over blockers except the knight, cannot land on an own piece).
"""
import numpy as np

SIZE = 6
PIECES = ["rook", "bishop", "knight", "king", "queen"]
N_PLANES = len(PIECES) + 2


def _reachable(piece, r, c, blockers):
    out = set()
    if piece in ("knight", "king"):
        steps = ([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
                 if piece == "knight" else
                 [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE and not blockers[rr, cc]:
                out.add((rr, cc))
        return out
    dirs = []
    if piece in ("rook", "queen"):
        dirs += [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if piece in ("bishop", "queen"):
        dirs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for dr, dc in dirs:
        rr, cc = r + dr, c + dc
        while 0 <= rr < SIZE and 0 <= cc < SIZE and not blockers[rr, cc]:
            out.add((rr, cc))
            rr, cc = rr + dr, cc + dc
    return out


def make_positions(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, N_PLANES, SIZE, SIZE), np.float32)
    y = np.zeros(n, np.float32)
    for i in range(n):
        k = rng.integers(len(PIECES))
        r, c = rng.integers(SIZE, size=2)
        blockers = rng.random((SIZE, SIZE)) < 0.15
        blockers[r, c] = False
        legal = sorted(_reachable(PIECES[k], r, c, blockers))
        want_legal = rng.random() < 0.5 and legal
        if want_legal:
            dest = legal[rng.integers(len(legal))]
        else:
            while True:
                dest = tuple(rng.integers(SIZE, size=2))
                if dest != (r, c) and dest not in legal:
                    break
        X[i, k, r, c] = 1
        X[i, 5] = blockers
        X[i, 6, dest[0], dest[1]] = 1
        y[i] = float(dest in legal)
    return X, y
