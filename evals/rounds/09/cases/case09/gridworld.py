import numpy as np

LAYOUT = [
    "........",
    "........",
    "........",
    "######..",
    "........",
    "........",
    "........",
    ".......G",
]
MOVES = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])


class VecGrid:
    """Lock-step batch of identical grid worlds with auto-reset."""

    def __init__(self, n_envs, rng, max_steps=50, step_cost=0.01):
        self.grid = np.array([list(r) for r in LAYOUT])
        self.h, self.w = self.grid.shape
        self.free = [(i, j) for i in range(self.h) for j in range(self.w) if self.grid[i, j] == "."]
        self.goal = tuple(np.argwhere(self.grid == "G")[0])
        self.n, self.rng = n_envs, rng
        self.max_steps, self.step_cost = max_steps, step_cost
        self.pos = np.zeros((n_envs, 2), dtype=int)
        self.t = np.zeros(n_envs, dtype=int)
        for k in range(n_envs):
            self._reset(k)

    @property
    def n_states(self):
        return self.h * self.w

    def _reset(self, k):
        self.pos[k] = self.free[self.rng.integers(len(self.free))]
        self.t[k] = 0

    def obs(self):
        return self.pos[:, 0] * self.w + self.pos[:, 1]

    def step(self, actions):
        nxt = self.pos + MOVES[actions]
        ok = (nxt[:, 0] >= 0) & (nxt[:, 0] < self.h) & (nxt[:, 1] >= 0) & (nxt[:, 1] < self.w)
        ok[ok] &= self.grid[nxt[ok, 0], nxt[ok, 1]] != "#"
        self.pos[ok] = nxt[ok]
        self.t += 1
        at_goal = (self.pos[:, 0] == self.goal[0]) & (self.pos[:, 1] == self.goal[1])
        reward = np.where(at_goal, 1.0, -self.step_cost)
        done = at_goal | (self.t >= self.max_steps)
        for k in np.flatnonzero(done):
            self._reset(k)
        return self.obs(), reward, done
