import numpy as np

N, WIN = 7, 4
DIRS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def lines_through(b, r, c, player):
    best = 0
    for dr, dc in DIRS:
        k = 1
        for s in (1, -1):
            rr, cc = r + s * dr, c + s * dc
            while 0 <= rr < N and 0 <= cc < N and b[rr, cc] == player:
                k += 1
                rr += s * dr
                cc += s * dc
        best = max(best, k)
    return best


def evaluate(b):
    """Hand-written score: open runs of the side to move (+1) minus the opponent (-1)."""
    score = 0.0
    for player, sign in ((1, 1.0), (-1, -1.0)):
        for r in range(N):
            for c in range(N):
                if b[r, c] == 0:
                    k = lines_through(b, r, c, player)
                    score += sign * (0.05 * (k >= 2) + 0.3 * (k >= 3) + 1.0 * (k >= WIN))
    return np.tanh(score / 2.0)


def threats(b):
    t = np.zeros((N, N), np.float32)
    for r in range(N):
        for c in range(N):
            if b[r, c] == 0 and (lines_through(b, r, c, 1) >= WIN or lines_through(b, r, c, -1) >= WIN):
                t[r, c] = 1.0
    return t


def random_positions(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, 2, N, N), np.float32)
    T = np.zeros((n, N, N), np.float32)
    V = np.zeros(n, np.float32)
    for i in range(n):
        b = np.zeros((N, N))
        moves = rng.integers(8, 20)
        player = 1
        # stones cluster a little, like real games
        center = rng.integers(1, N - 1, 2)
        for _ in range(moves):
            for _try in range(20):
                r, c = np.clip(center + rng.integers(-3, 4, 2), 0, N - 1)
                if b[r, c] == 0:
                    break
            b[r, c] = player
            player = -player
        X[i, 0], X[i, 1] = b == 1, b == -1
        T[i] = threats(b)
        V[i] = evaluate(b)
    return X, T, V
