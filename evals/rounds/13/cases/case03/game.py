import itertools

import numpy as np

RANKS, SUITS = 13, 4
HAND = 4
FACE_UP = 2  # opponent cards shown before the discard


def score(cards):
    ranks = [c % RANKS + 1 for c in cards]
    suits = [c // RANKS for c in cards]
    s = sum(ranks)
    s += 10 * sum(ranks.count(r) // 2 for r in set(ranks))
    if max(suits.count(k) for k in range(SUITS)) >= 3:
        s += 6
    return s


def best_discard(hand):
    return int(np.argmax([score([c for j, c in enumerate(hand) if j != i]) for i in range(HAND)]))


def encode_card(c):
    v = np.zeros(RANKS + SUITS, dtype=np.float32)
    v[c % RANKS] = 1.0
    v[RANKS + c // RANKS] = 1.0
    return v


def deal_games(n, seed):
    rng = np.random.default_rng(seed)
    feats, discards, wins = [], [], []
    for _ in range(n):
        deck = rng.permutation(RANKS * SUITS)
        mine, theirs = list(deck[:HAND]), list(deck[HAND:2 * HAND])
        d_me, d_them = best_discard(mine), best_discard(theirs)
        my_final = score([c for j, c in enumerate(mine) if j != d_me])
        their_final = score([c for j, c in enumerate(theirs) if j != d_them])
        x = np.concatenate([encode_card(c) for c in mine] + [encode_card(c) for c in theirs[:FACE_UP]])
        feats.append(x)
        discards.append(d_me)
        wins.append(float(my_final > their_final))
    return (np.stack(feats), np.array(discards, dtype=np.int64), np.array(wins, dtype=np.float32))
