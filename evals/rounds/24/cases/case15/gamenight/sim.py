import numpy as np

GENRES = 6
PLAYERS = 5
PLAYER_DIM = 2 + GENRES  # skill, presence, genre preferences


def simulate_nights(n, seed):
    rng = np.random.default_rng(seed)
    skill = rng.normal(0, 1, (n, PLAYERS))
    presence = rng.normal(0, 1, (n, PLAYERS))
    prefs = rng.normal(0, 1, (n, PLAYERS, GENRES))
    game = rng.normal(0, 1, (n, GENRES + 1))          # genre mix + complexity
    # players with more presence pull the evening towards their taste
    share = np.exp(1.5 * presence)
    share /= share.sum(1, keepdims=True)
    taste = (share[..., None] * prefs).sum(1)
    fit = (taste * game[:, :GENRES]).sum(1)
    spread = skill.std(1)
    complexity_match = -np.abs(game[:, GENRES] - skill.mean(1))
    score = 1.2 * fit - 0.8 * spread + 0.5 * complexity_match + rng.normal(0, 0.2, n)
    players = np.concatenate([skill[..., None], presence[..., None], prefs], -1)
    return players.astype(np.float32), game.astype(np.float32), score.astype(np.float32)
