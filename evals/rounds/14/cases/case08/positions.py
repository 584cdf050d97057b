import random

import torch

DRAW, WIN_FAST, WIN_SLOW = 0, 1, 2


def cheb(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def legal(wk, wr, bk):
    return len({wk, wr, bk}) == 3 and cheb(wk, bk) > 1


def oracle(wk, wr, bk, black_to_move):
    if black_to_move and cheb(bk, wr) == 1 and cheb(wk, wr) > 1:
        return DRAW
    edge = min(bk[0], bk[1], 7 - bk[0], 7 - bk[1])
    return WIN_FAST if edge == 0 else WIN_SLOW


def encode(wk, wr, bk, black_to_move):
    v = torch.zeros(3 * 64 + 1)
    for k, sq in enumerate((wk, wr, bk)):
        v[k * 64 + sq[0] * 8 + sq[1]] = 1.0
    v[-1] = float(black_to_move)
    return v


def sample(n, seed):
    rng = random.Random(seed)
    xs, ys = [], []
    while len(ys) < n:
        wk, wr, bk = [(rng.randrange(8), rng.randrange(8)) for _ in range(3)]
        if not legal(wk, wr, bk):
            continue
        btm = rng.random() < 0.5
        # enrich with hanging-rook positions, otherwise they are rare
        if rng.random() < 0.3:
            dx, dy = rng.choice([(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)])
            wr = (bk[0] + dx, bk[1] + dy)
            if not (0 <= wr[0] < 8 and 0 <= wr[1] < 8) or not legal(wk, wr, bk):
                continue
        xs.append(encode(wk, wr, bk, btm))
        ys.append(oracle(wk, wr, bk, btm))
    return torch.stack(xs), torch.tensor(ys)
