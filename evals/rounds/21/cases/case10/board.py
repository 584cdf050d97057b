import numpy as np

SQUARES = 32


def random_positions(n, seed):
    """Planes: own men, own kings, opp men, opp kings over the 32 dark squares."""
    rng = np.random.default_rng(seed)
    planes = np.zeros((n, 4, SQUARES), np.float32)
    occ = rng.random((n, SQUARES))
    planes[:, 0] = occ < 0.25
    planes[:, 2] = (occ >= 0.25) & (occ < 0.5)
    kings = rng.random((n, SQUARES)) < 0.15
    planes[:, 1] = planes[:, 0] * kings
    planes[:, 3] = planes[:, 2] * kings
    planes[:, 0] -= planes[:, 1]
    planes[:, 2] -= planes[:, 3]
    own = planes[:, 0] + planes[:, 1]
    opp = planes[:, 2] + planes[:, 3]
    material = own.sum(1) + 2 * planes[:, 1].sum(1) - opp.sum(1) - 2 * planes[:, 3].sum(1)
    value = np.tanh(material / 4.0).astype(np.float32)
    # "best move": the own piece furthest advanced (square index), kings preferred
    score = own * (np.arange(SQUARES)[None, :] + 40 * planes[:, 1]) - 1e3 * (1 - own)
    move = score.argmax(1)
    legal = own > 0
    legal[own.sum(1) == 0, 0] = True
    return planes.reshape(n, -1), value, move, legal
