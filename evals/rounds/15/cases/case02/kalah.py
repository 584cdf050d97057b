"""Minimal Kalah rules. Board: 14 ints, pits 0-5 (side to move), 6 = its store,
7-12 opponent pits, 13 = opponent store."""
import numpy as np


def sow(board, pit):
    b = board.copy()
    seeds, b[pit] = b[pit], 0
    i = pit
    while seeds:
        i = (i + 1) % 14
        if i == 13:
            continue
        b[i] += 1
        seeds -= 1
    extra = i == 6
    if 0 <= i <= 5 and b[i] == 1 and b[12 - i] > 0:
        b[6] += b[12 - i] + 1
        b[i] = b[12 - i] = 0
    return b, extra


def teacher_move(board):
    best, best_score = None, -1e9
    for p in range(6):
        if board[p] == 0:
            continue
        nb, extra = sow(board, p)
        score = (nb[6] - board[6]) + 2.0 * extra - 0.01 * p
        if score > best_score:
            best, best_score = p, score
    return best


def heuristic_value(board):
    return (board[6] - board[13]) + 0.4 * (board[0:6].sum() - board[7:13].sum())


def flip(board):
    return np.concatenate([board[7:14], board[0:7]])


def sample_positions(n, seed):
    rng = np.random.default_rng(seed)
    X, V, M = [], [], []
    while len(X) < n:
        b = np.array([4] * 6 + [0] + [4] * 6 + [0])
        for _ in range(int(rng.integers(0, 30))):
            legal = np.nonzero(b[:6])[0]
            if len(legal) == 0:
                break
            b, extra = sow(b, int(rng.choice(legal)))
            if not extra:
                b = flip(b)
        if b[:6].sum() == 0:
            continue
        X.append(b.astype(np.float32))
        V.append(heuristic_value(b))
        M.append(teacher_move(b))
    return np.stack(X), np.array(V, np.float32), np.array(M, np.int64)
