"""Batched 7x7 grid world with a lava wall, written with tensors."""
from collections import deque

import torch

SIZE = 7
GOAL = (0, 6)
LAVA = {(2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)}
MOVES = torch.tensor([[-1, 0], [1, 0], [0, -1], [0, 1]])      # up, down, left, right
STEP_COST, GOAL_REWARD, LAVA_REWARD, MAX_STEPS = -0.02, 1.0, -1.0, 40

FREE = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in LAVA and (r, c) != GOAL]
_lava = torch.zeros(SIZE, SIZE, dtype=torch.bool)
for r, c in LAVA:
    _lava[r, c] = True


class LavaGrid:
    def __init__(self, n_envs, generator):
        self.n, self.g = n_envs, generator
        self.pos = torch.zeros(n_envs, 2, dtype=torch.long)
        self.t = torch.zeros(n_envs, dtype=torch.long)
        self.reset_where(torch.ones(n_envs, dtype=torch.bool))

    def reset_where(self, mask):
        idx = torch.randint(len(FREE), (int(mask.sum()),), generator=self.g)
        self.pos[mask] = torch.tensor(FREE)[idx]
        self.t[mask] = 0

    def obs(self):
        return observe(self.pos)

    def step(self, action):
        new = (self.pos + MOVES[action]).clamp(0, SIZE - 1)
        self.pos = new
        self.t += 1
        at_goal = (new[:, 0] == GOAL[0]) & (new[:, 1] == GOAL[1])
        in_lava = _lava[new[:, 0], new[:, 1]]
        reward = torch.full((self.n,), STEP_COST)
        reward[at_goal] = GOAL_REWARD
        reward[in_lava] = LAVA_REWARD
        done = at_goal | in_lava | (self.t >= MAX_STEPS)
        self.reset_where(done)
        return self.obs(), reward, done


def observe(pos):
    onehot = torch.zeros(len(pos), SIZE * SIZE)
    onehot[torch.arange(len(pos)), pos[:, 0] * SIZE + pos[:, 1]] = 1.0
    return onehot


def optimal_return(gamma=1.0):
    """Average undiscounted return of the shortest safe path from each free cell."""
    dist = {GOAL: 0}
    q = deque([GOAL])
    while q:
        r, c = q.popleft()
        for dr, dc in MOVES.tolist():
            nb = (r + dr, c + dc)
            if 0 <= nb[0] < SIZE and 0 <= nb[1] < SIZE and nb not in LAVA and nb not in dist:
                dist[nb] = dist[(r, c)] + 1
                q.append(nb)
    rets = [GOAL_REWARD + STEP_COST * (dist[s] - 1) for s in FREE]
    return sum(rets) / len(rets)
