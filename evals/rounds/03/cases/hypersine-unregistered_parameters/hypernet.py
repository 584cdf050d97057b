import math

import torch
import torch.nn as nn


class HyperNetwork(nn.Module):
    """Generates the weights of a 1 -> H -> H -> 1 tanh MLP from a task descriptor."""

    def __init__(self, desc_dim=4, embed_dim=8, hidden=64, target_hidden=24):
        super().__init__()
        th = target_hidden
        self.target_shapes = {
            "w1": (th, 1), "b1": (th,),
            "w2": (th, th), "b2": (th,),
            "w3": (1, th), "b3": (1,),
        }
        self.embed = nn.Sequential(
            nn.Linear(desc_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, embed_dim),
        )
        # one linear generator per target tensor
        self.generators = {}
        for name, shape in self.target_shapes.items():
            gen = nn.Linear(embed_dim, math.prod(shape))
            fan_in = shape[-1] if len(shape) == 2 else th
            nn.init.normal_(gen.weight, std=1.0 / math.sqrt(embed_dim * fan_in))
            nn.init.zeros_(gen.bias)
            self.generators[name] = gen

    def forward(self, desc):
        e = self.embed(desc)                            # (tasks, embed_dim)
        return {name: self.generators[name](e).view(len(desc), *shape)
                for name, shape in self.target_shapes.items()}


def target_forward(weights, x):
    """Apply the generated per-task MLPs. x: (tasks, points, 1)."""
    h = torch.tanh(x @ weights["w1"].transpose(1, 2) + weights["b1"].unsqueeze(1))
    h = torch.tanh(h @ weights["w2"].transpose(1, 2) + weights["b2"].unsqueeze(1))
    return h @ weights["w3"].transpose(1, 2) + weights["b3"].unsqueeze(1)
