from collections import deque

import numpy as np

NEIGH = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]


def red_connects(board):
    """Red (1) wins if a chain of red cells joins row 0 to the last row."""
    n = board.shape[0]
    seen = np.zeros_like(board, bool)
    q = deque((0, c) for c in range(n) if board[0, c] == 1)
    for r, c in q:
        seen[r, c] = True
    while q:
        r, c = q.popleft()
        if r == n - 1:
            return True
        for dr, dc in NEIGH:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n and not seen[rr, cc] and board[rr, cc] == 1:
                seen[rr, cc] = True
                q.append((rr, cc))
    return False


def random_games(n_games, size, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n_games, 2, size, size), np.float32)
    y = np.zeros(n_games, np.int64)
    for g in range(n_games):
        cells = rng.permutation(size * size)
        board = np.zeros((size, size), np.int64)
        for k, cell in enumerate(cells):
            board[cell // size, cell % size] = 1 if k % 2 == 0 else 2
        X[g, 0], X[g, 1] = board == 1, board == 2
        y[g] = 0 if red_connects(board) else 1       # on a full board exactly one side connects
    return X, y
