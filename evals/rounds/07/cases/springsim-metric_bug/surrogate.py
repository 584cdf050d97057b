import torch
import torch.nn as nn


class StepModel(nn.Module):
    """Predicts the state increment over one time step."""

    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, state, params):
        return state + 0.1 * self.net(torch.cat([state, params], -1))


@torch.no_grad()
def rollout(model, s0, params, n_steps):
    """Autoregressive rollout; returns [B, n_steps + 1, 2] including the initial state."""
    traj = [s0]
    s = s0
    for _ in range(n_steps):
        s = model(s, params)
        traj.append(s)
    return torch.stack(traj, 1)


def rollout_rmse(model, traj, params):
    pred = rollout(model, traj[:, 0], params, traj.shape[1] - 1)
    err = pred[:, 1:, 0] - traj[:, :-1, 0]
    return err.pow(2).mean().sqrt().item()
