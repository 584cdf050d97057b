"""Turn a dict of recorded episodes into flat training arrays."""
import numpy as np
import torch
from torch.utils.data import Dataset


def stack_observations(episodes):
    # deterministic episode order so that cached arrays are reproducible
    keys = sorted(episodes)
    return np.concatenate([episodes[k]["obs"] for k in keys], axis=0)


def stack_actions(episodes):
    return np.concatenate([ep["act"] for ep in episodes.values()], axis=0)


class TransitionDataset(Dataset):
    def __init__(self, episodes, obs_mean=None, obs_std=None):
        obs = stack_observations(episodes)
        self.actions = torch.from_numpy(stack_actions(episodes))
        if obs_mean is None:
            obs_mean, obs_std = obs.mean(0), obs.std(0) + 1e-6
        self.obs_mean, self.obs_std = obs_mean, obs_std
        self.obs = torch.from_numpy((obs - obs_mean) / obs_std).float()
        assert len(self.obs) == len(self.actions)

    def __len__(self):
        return len(self.obs)

    def __getitem__(self, i):
        return self.obs[i], self.actions[i]
