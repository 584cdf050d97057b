import random

PAD, OPEN, CLOSE = 0, 1, 2


def random_balanced(rng, n_pairs):
    s, depth, opens = [], 0, n_pairs
    while opens or depth:
        if opens and (depth == 0 or rng.random() < 0.5):
            s.append("("); opens -= 1; depth += 1
        else:
            s.append(")"); depth -= 1
    return "".join(s)


def is_balanced(s):
    depth = 0
    for ch in s:
        depth += 1 if ch == "(" else -1
        if depth < 0:
            return False
    return depth == 0


def near_miss(rng, s):
    s = list(s)
    if rng.random() < 0.5:
        i = rng.randrange(len(s)); s[i] = "(" if s[i] == ")" else ")"
    else:
        i, j = rng.randrange(len(s)), rng.randrange(len(s)); s[i], s[j] = s[j], s[i]
    return "".join(s)


def make_split(n, max_len, seed):
    rng = random.Random(seed)
    data = []
    while len(data) < n:
        s = random_balanced(rng, rng.randint(1, max_len // 2))
        if rng.random() < 0.5:
            s = near_miss(rng, s)
        data.append((s, int(is_balanced(s))))
    return data


def encode(batch):
    """Returns token ids (B, T) and a padding mask that is True at padded positions."""
    import torch
    t = max(len(s) for s, _ in batch)
    ids = torch.full((len(batch), t), PAD, dtype=torch.long)
    for k, (s, _) in enumerate(batch):
        ids[k, : len(s)] = torch.tensor([OPEN if ch == "(" else CLOSE for ch in s])
    labels = torch.tensor([y for _, y in batch])
    return ids, ids == PAD, labels
