import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_obs, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.q = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.q(self.body(obs))


class ReplayBuffer:
    """Fixed-size ring buffer. Everything is kept 2-D so rows can be sliced uniformly."""

    def __init__(self, capacity, obs_dim, seed=0):
        self.capacity = capacity
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros((capacity,), dtype=np.int64)
        self.rewards = np.zeros((capacity, 1), dtype=np.float32)
        self.dones = np.zeros((capacity, 1), dtype=np.float32)
        self.ptr = 0
        self.size = 0
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return self.size

    def push(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i] = obs
        self.actions[i] = action
        self.rewards[i] = reward
        self.next_obs[i] = next_obs
        self.dones[i] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = self.rng.integers(0, self.size, size=batch_size)
        return (
            torch.from_numpy(self.obs[idx]),
            torch.from_numpy(self.actions[idx]),
            torch.from_numpy(self.rewards[idx]),
            torch.from_numpy(self.next_obs[idx]),
            torch.from_numpy(self.dones[idx]),
        )


class DQNAgent:
    def __init__(self, n_obs, n_actions, lr=2e-3, gamma=0.9, hidden=64):
        self.n_actions = n_actions
        self.gamma = gamma
        self.online = QNetwork(n_obs, n_actions, hidden)
        self.target = copy.deepcopy(self.online)
        self.target.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=lr)

    @torch.no_grad()
    def act(self, obs, epsilon, rng):
        if rng.random() < epsilon:
            return int(rng.integers(self.n_actions))
        q = self.online(torch.as_tensor(obs).unsqueeze(0))
        return int(q.argmax(dim=1).item())

    def sync_target(self):
        self.target.load_state_dict(self.online.state_dict())

    def update(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q_taken = self.online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = self.target(next_obs).max(dim=1).values
            td_target = rewards + self.gamma * next_q * (1.0 - dones)
        loss = F.smooth_l1_loss(q_taken, td_target)

        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.optimizer.step()
        return loss.item()
