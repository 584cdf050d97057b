import numpy as np
import torch

PAD = 0


def simulate_sessions(n_sessions, n_items=400, seed=0, follow=0.85, n_related=3):
    """Item ids are 1..n_items; 0 is padding."""
    rng = np.random.default_rng(1234)  # the catalogue graph is fixed
    related = rng.integers(1, n_items + 1, size=(n_items + 1, n_related))
    rng = np.random.default_rng(seed)
    pop = 1.0 / np.arange(1, n_items + 1) ** 0.8
    pop /= pop.sum()
    sessions = []
    for _ in range(n_sessions):
        length = rng.integers(4, 16)
        cur = rng.choice(n_items, p=pop) + 1
        s = [cur]
        for _ in range(length - 1):
            if rng.random() < follow:
                cur = related[cur, rng.integers(n_related)]
            else:
                cur = rng.choice(n_items, p=pop) + 1
            s.append(int(cur))
        sessions.append(s)
    return sessions


def pad_batch(sessions):
    """Returns inputs and next-click targets, both (B, T) padded with PAD."""
    T = max(len(s) for s in sessions) - 1
    x = torch.full((len(sessions), T), PAD, dtype=torch.long)
    y = torch.full((len(sessions), T), PAD, dtype=torch.long)
    for i, s in enumerate(sessions):
        x[i, :len(s) - 1] = torch.tensor(s[:-1])
        y[i, :len(s) - 1] = torch.tensor(s[1:])
    return x, y
