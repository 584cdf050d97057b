import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    """y = W x + b + (alpha / r) * B A x, with W, b taken from a pretrained layer."""

    def __init__(self, base: nn.Linear, rank: int, alpha: float):
        super().__init__()
        self.base = base
        self.scale = alpha / rank
        self.lora = nn.ParameterDict({
            "A": nn.Parameter(torch.empty(rank, base.in_features)),
            "B": nn.Parameter(torch.zeros(base.out_features, rank)),
        })
        nn.init.kaiming_uniform_(self.lora["A"], a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.lora["A"].T @ self.lora["B"].T)


def inject(model, rank, alpha):
    for i, lin in enumerate(model.layers):
        model.layers[i] = LoRALinear(lin, rank, alpha)
    return model


def mark_trainable(model, patterns):
    n_train = 0
    for name, p in model.named_parameters():
        p.requires_grad_(any(pat in name for pat in patterns))
        n_train += p.numel() if p.requires_grad else 0
    return n_train
