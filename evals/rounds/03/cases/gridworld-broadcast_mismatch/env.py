"""A tiny deterministic gridworld.

Layout legend:  # wall   G goal (+1, terminal)   L lava (-1, terminal)   . floor
"""
import numpy as np

LAYOUT = [
    "########",
    "#......#",
    "#.##.#.#",
    "#..#L#.#",
    "#L.....#",
    "#..##.##",
    "#.....G#",
    "########",
]

ACTIONS = [(-1, 0), (1, 0), (0, -1), (0, 1)]  # up, down, left, right


class GridWorld:
    step_penalty = -0.01

    def __init__(self, max_steps=30, seed=0):
        self.grid = np.array([list(row) for row in LAYOUT])
        self.h, self.w = self.grid.shape
        self.free = [(r, c) for r in range(self.h) for c in range(self.w) if self.grid[r, c] == "."]
        self.max_steps = max_steps
        self.rng = np.random.default_rng(seed)
        self.pos = None
        self.t = 0

    @property
    def n_states(self):
        return self.h * self.w

    @property
    def n_actions(self):
        return len(ACTIONS)

    def observe(self):
        obs = np.zeros(self.n_states, dtype=np.float32)
        obs[self.pos[0] * self.w + self.pos[1]] = 1.0
        return obs

    def reset(self, start=None):
        if start is None:
            start = self.free[self.rng.integers(len(self.free))]
        self.pos = tuple(start)
        self.t = 0
        return self.observe()

    def step(self, action):
        dr, dc = ACTIONS[action]
        r, c = self.pos[0] + dr, self.pos[1] + dc
        if self.grid[r, c] != "#":
            self.pos = (r, c)
        self.t += 1
        cell = self.grid[self.pos]
        if cell == "G":
            return self.observe(), 1.0, True
        if cell == "L":
            return self.observe(), -1.0, True
        return self.observe(), self.step_penalty, self.t >= self.max_steps
