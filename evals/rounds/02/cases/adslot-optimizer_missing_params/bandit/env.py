import torch


class AdSlotEnv:
    """Revenue simulator: base(context) + effect(context, creative) + noise."""

    def __init__(self, dim=10, n_arms=8, noise=2.0, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.dim, self.n_arms, self.noise = dim, n_arms, noise
        self.base_w = torch.randn(dim, generator=g)
        self.arm_w = torch.randn(n_arms, dim, generator=g) * 0.8
        self.arm_b = torch.randn(n_arms, generator=g) * 0.3
        self.g = torch.Generator().manual_seed(seed + 1)

    def contexts(self, n, generator=None):
        return torch.randn(n, self.dim, generator=generator or self.g)

    def expected_reward(self, ctx):
        """[N, n_arms] mean revenue for every creative."""
        base = 30.0 + 12.0 * torch.tanh(ctx @ self.base_w / 2)
        effect = torch.tanh(ctx @ self.arm_w.T) * 3.0 + self.arm_b
        return base.unsqueeze(1) + effect

    def step(self, ctx, actions):
        mean = self.expected_reward(ctx).gather(1, actions.unsqueeze(1)).squeeze(1)
        return mean + self.noise * torch.randn(mean.shape, generator=self.g)
