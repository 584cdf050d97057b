import torch


def random_positions(n, g):
    """Checker counts per point for both sides [n, 2, 24], bar [n, 2], off [n, 2]."""
    boards = torch.zeros(n, 2, 24)
    bar = torch.zeros(n, 2)
    off = torch.zeros(n, 2)
    for side in range(2):
        progress = torch.rand(n, 1, generator=g)          # how far the game has advanced
        for _ in range(15):
            r = torch.rand(n, generator=g)
            kind = torch.rand(n, generator=g)
            pos = ((1 - progress[:, 0]) * 23 * torch.rand(n, generator=g)).long().clamp(0, 23)
            is_off = kind < 0.25 * progress[:, 0]
            is_bar = (kind > 0.97)
            on_board = ~(is_off | is_bar)
            boards[torch.arange(n)[on_board], side, pos[on_board]] += 1
            bar[:, side] += is_bar.float()
            off[:, side] += is_off.float()
    return boards, bar, off


def pip_count(boards, bar):
    w = torch.arange(1, 25).float()
    return (boards * w).sum(-1) + 25 * bar


def encode(boards, bar, off):
    units = [(boards >= k).float() for k in (1, 2, 3)] + [((boards - 3).clamp(min=0)) / 2]
    x = torch.cat([u.flatten(1) for u in units] + [bar / 2, off / 15], 1)
    return x


def mirror(boards, bar, off):
    return boards.flip(1), bar.flip(1), off.flip(1)


def simulate_games(n, seed):
    g = torch.Generator().manual_seed(seed)
    boards, bar, off = random_positions(n, g)
    pips = pip_count(boards, bar)
    blots = (boards == 1).float().sum(-1)
    equity = 0.08 * (pips[:, 1] - pips[:, 0]) - 0.35 * (blots[:, 0] - blots[:, 1]) + 0.3
    p_win = torch.sigmoid(equity)
    outcome = (torch.rand(n, generator=g) < p_win).float()
    return (boards, bar, off), outcome
