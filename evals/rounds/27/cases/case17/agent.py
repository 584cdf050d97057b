import torch
import torch.nn as nn


def mlp(n_in, n_out, hidden=64):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                         nn.Linear(hidden, n_out))


class GateAgent(nn.Module):
    def __init__(self, obs_dim, n_actions=4):
        super().__init__()
        self.policy = mlp(obs_dim, n_actions)
        self.value = mlp(obs_dim, 1)

    def act(self, obs, greedy=False):
        logits = self.policy(obs)
        dist = torch.distributions.Categorical(logits=logits)
        action = logits.argmax(-1) if greedy else dist.sample()
        return action, dist.log_prob(action), dist.entropy()

    def v(self, obs):
        return self.value(obs).squeeze(-1)
