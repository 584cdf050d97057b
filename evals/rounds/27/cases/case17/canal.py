import torch

LEVELS = torch.tensor([0.0, 1 / 3, 2 / 3, 1.0])


class Canal:
    """Vectorised channel with a pure transport delay of `delay` steps."""

    def __init__(self, n_envs, delay, horizon, gen):
        self.n, self.delay, self.horizon, self.gen = n_envs, delay, horizon, gen

    def _demand(self, k):
        idx = torch.randint(0, 4, (self.n, k), generator=self.gen)
        return LEVELS[idx] + 0.03 * torch.randn(self.n, k, generator=self.gen)

    def reset(self):
        self.t = 0
        self.in_transit = LEVELS[torch.randint(0, 4, (self.n, self.delay), generator=self.gen)]
        self.demand = self._demand(self.delay + 1)           # demand[t .. t+delay]
        return self.obs()

    def obs(self):
        return torch.cat([self.in_transit, self.demand], 1)

    def step(self, action):
        arriving = self.in_transit[:, 0]
        reward = -(arriving - self.demand[:, 0]).abs()
        self.in_transit = torch.cat([self.in_transit[:, 1:], LEVELS[action].unsqueeze(1)], 1)
        self.demand = torch.cat([self.demand[:, 1:], self._demand(1)], 1)
        self.t += 1
        return self.obs(), reward, self.t >= self.horizon
