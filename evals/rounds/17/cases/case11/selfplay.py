import numpy as np

ROWS, COLS = 6, 7


def drop(board, col, player):
    for r in range(ROWS - 1, -1, -1):
        if board[r, col] == 0:
            board[r, col] = player
            return r
    return -1


def windows():
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLS for rr, cc in cells):
                    out.append(cells)
    return out


WINDOWS = windows()
CENTRE = np.array([[3, 4, 5, 7, 5, 4, 3]] * ROWS) / 7.0


def heuristic(board, me):
    score = 0.0
    for cells in WINDOWS:
        vals = [board[r, c] for r, c in cells]
        mine, theirs = vals.count(me), vals.count(-me)
        if theirs == 0:
            score += [0, 0.05, 0.25, 1.0, 6.0][mine]
        if mine == 0:
            score -= [0, 0.05, 0.25, 1.2, 6.0][theirs]
    score += 0.15 * ((board == me) * CENTRE).sum() - 0.15 * ((board == -me) * CENTRE).sum()
    return np.tanh(score / 6.0)


def generate(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, 2, ROWS, COLS), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    i = 0
    while i < n:
        board = np.zeros((ROWS, COLS), dtype=np.int8)
        player = 1
        for _ in range(rng.integers(4, 30)):
            legal = [c for c in range(COLS) if board[0, c] == 0]
            drop(board, rng.choice(legal), player)
            player = -player
        X[i, 0] = board == player
        X[i, 1] = board == -player
        y[i] = heuristic(board, player)
        i += 1
    return X, y
