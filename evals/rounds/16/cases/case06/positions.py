import numpy as np

DARK = [(r, c) for r in range(8) for c in range(8) if (r + c) % 2 == 1]


def random_position(rng):
    """4 planes: own men, own kings, opponent men, opponent kings (side to move = 'own')."""
    board = np.zeros((4, 8, 8), dtype=np.float32)
    cells = rng.permutation(len(DARK))
    n_own, n_opp = rng.integers(2, 11, 2)
    for k, idx in enumerate(cells[:n_own + n_opp]):
        r, c = DARK[idx]
        own = k < n_own
        king = rng.random() < 0.2
        board[(0 if own else 2) + int(king), r, c] = 1
    return board


def evaluate(board, rng):
    own = board[0].sum() + 1.6 * board[1].sum()
    opp = board[2].sum() + 1.6 * board[3].sum()
    rows = np.arange(8)[:, None]
    advance = (board[0] * (7 - rows)).sum() * 0.08 - (board[2] * rows).sum() * 0.08
    back_rank = board[0, 7].sum() * 0.3 - board[2, 0].sum() * 0.3
    return own - opp + advance + back_rank + rng.normal(0, 0.6)


def material_bucket(board):
    diff = board[0].sum() + board[1].sum() - board[2].sum() - board[3].sum()
    return int(np.digitize(diff, [-2.5, -0.5, 0.5, 2.5]))


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    boards, wins, buckets = [], [], []
    for _ in range(n):
        b = random_position(rng)
        boards.append(b)
        wins.append(float(evaluate(b, rng) > 0))
        buckets.append(material_bucket(b))
    return np.stack(boards), np.array(wins, np.float32), np.array(buckets, np.int64)
