import numpy as np

WEIGHTS = np.array([
    [12, -4, 3, 2, 2, 3, -4, 12],
    [-4, -6, -1, -1, -1, -1, -6, -4],
    [3, -1, 1, 0, 0, 1, -1, 3],
    [2, -1, 0, 1, 1, 0, -1, 2],
    [2, -1, 0, 1, 1, 0, -1, 2],
    [3, -1, 1, 0, 0, 1, -1, 3],
    [-4, -6, -1, -1, -1, -1, -6, -4],
    [12, -4, 3, 2, 2, 3, -4, 12]], dtype=np.float32)


def random_positions(n, seed):
    """Boards [n, 1, 8, 8] and outcome in [-1, 1]; also returns the number of empty squares."""
    rng = np.random.default_rng(seed)
    boards = np.zeros((n, 8, 8), np.float32)
    empties = rng.integers(4, 56, n)
    for i in range(n):
        filled = rng.choice(64, 64 - empties[i], replace=False)
        bias = rng.normal(0, 0.4)
        vals = np.where(rng.random(len(filled)) < 0.5 + 0.3 * np.tanh(bias), 1.0, -1.0)
        boards[i].flat[filled] = vals
    positional = (boards * WEIGHTS).sum((1, 2))
    material = boards.sum((1, 2))
    phase = 1 - empties / 60.0
    score = (1 - phase) * positional / 12 + phase * material / 6
    outcome = np.tanh(score / 2 + rng.normal(0, 0.15, n)).astype(np.float32)
    return boards[:, None], outcome, empties
