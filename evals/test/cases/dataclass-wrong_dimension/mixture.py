import torch
import torch.nn as nn


class Expert(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


class MixtureOfExperts(nn.Module):
    """Soft mixture: a gating network weighs the outputs of several experts."""

    def __init__(self, n_in, n_experts=4, expert_hidden=32, gate_hidden=32):
        super().__init__()
        self.experts = nn.ModuleList(Expert(n_in, expert_hidden) for _ in range(n_experts))
        self.gate = nn.Sequential(
            nn.Linear(n_in, gate_hidden),
            nn.Tanh(),
            nn.Linear(gate_hidden, n_experts),
        )

    def forward(self, x, return_gates=False):
        expert_out = torch.cat([e(x) for e in self.experts], dim=1)    # (batch, n_experts)
        gates = torch.softmax(self.gate(x), dim=0)                     # (batch, n_experts)
        y = (gates * expert_out).sum(dim=1)
        if return_gates:
            return y, gates
        return y
