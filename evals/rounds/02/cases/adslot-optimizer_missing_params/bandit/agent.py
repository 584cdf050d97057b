import torch
import torch.nn as nn


def mlp(d_in, d_out, hidden=64):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                         nn.Linear(hidden, d_out))


class Agent(nn.Module):
    def __init__(self, dim, n_arms, hidden=64):
        super().__init__()
        self.policy = mlp(dim, n_arms, hidden)
        self.critic = mlp(dim, 1, hidden)

    def dist(self, ctx):
        return torch.distributions.Categorical(logits=self.policy(ctx))

    def value(self, ctx):
        return self.critic(ctx).squeeze(-1)

    @torch.no_grad()
    def greedy(self, ctx):
        return self.policy(ctx).argmax(-1)
