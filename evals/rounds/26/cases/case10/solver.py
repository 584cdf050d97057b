"""Exact negamax for 2x2 dots-and-boxes (12 edges, 4096 positions)."""
from functools import lru_cache

# edges as midpoints on the 3x3 dot lattice: horizontal (x=c+.5, y=r), vertical (x=c, y=r+.5)
EDGES = [("h", r, c) for r in range(3) for c in range(2)] + [("v", r, c) for r in range(2) for c in range(3)]
MIDPOINTS = [(c + 0.5, r) if k == "h" else (c, r + 0.5) for k, r, c in EDGES]
BOXES = []
for r in range(2):
    for c in range(2):
        sides = [EDGES.index(("h", r, c)), EDGES.index(("h", r + 1, c)),
                 EDGES.index(("v", r, c)), EDGES.index(("v", r, c + 1))]
        BOXES.append(sum(1 << s for s in sides))
FULL = (1 << len(EDGES)) - 1


def completed(mask):
    return sum(1 for b in BOXES if mask & b == b)


@lru_cache(maxsize=None)
def value(mask):
    """Best margin of remaining boxes for the player to move."""
    if mask == FULL:
        return 0
    best = -99
    before = completed(mask)
    for e in range(len(EDGES)):
        if mask >> e & 1:
            continue
        nxt = mask | (1 << e)
        gained = completed(nxt) - before
        v = gained + value(nxt) if gained else -value(nxt)
        best = max(best, v)
    return best


def symmetries():
    """Edge permutations for the 8 symmetries of the square."""
    def maps(x, y):
        return [(x, y), (2 - y, x), (2 - x, 2 - y), (y, 2 - x),
                (2 - x, y), (x, 2 - y), (y, x), (2 - y, 2 - x)]
    index = {p: i for i, p in enumerate(MIDPOINTS)}
    perms = []
    for k in range(8):
        perms.append([index[maps(x, y)[k]] for x, y in MIDPOINTS])
    return perms
