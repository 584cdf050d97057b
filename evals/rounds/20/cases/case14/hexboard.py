from collections import deque

import numpy as np

NEIGHBOURS = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]


def black_wins(board):
    """board[r, c] = 1 for Black, -1 for White. Black connects row 0 to row n-1."""
    n = board.shape[0]
    seen = np.zeros_like(board, dtype=bool)
    q = deque((0, c) for c in range(n) if board[0, c] == 1)
    for r, c in q:
        seen[r, c] = True
    while q:
        r, c = q.popleft()
        if r == n - 1:
            return True
        for dr, dc in NEIGHBOURS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n and not seen[rr, cc] and board[rr, cc] == 1:
                seen[rr, cc] = True
                q.append((rr, cc))
    return False


def random_positions(n_boards, size=5, seed=0):
    rng = np.random.default_rng(seed)
    boards = np.where(rng.random((n_boards, size, size)) < 0.5, 1, -1).astype(np.float32)
    wins = np.array([black_wins(b) for b in boards], dtype=np.float32)
    return boards, wins


def planes(boards):
    """(N, 3, n, n): black stones, white stones, a constant plane that marks the board edge."""
    ones = np.ones_like(boards)
    return np.stack([(boards == 1), (boards == -1), ones], 1).astype(np.float32)
