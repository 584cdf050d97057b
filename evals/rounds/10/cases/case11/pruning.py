import torch
import torch.nn as nn


class MagnitudePruner:
    """Unstructured magnitude pruning of every Linear weight (biases untouched)."""

    def __init__(self, model):
        self.layers = [m for m in model.modules() if isinstance(m, nn.Linear)]
        self.masks = [torch.ones_like(m.weight) for m in self.layers]

    @torch.no_grad()
    def update_masks(self, sparsity):
        for i, m in enumerate(self.layers):
            w = m.weight.abs().flatten()
            k = int(sparsity * w.numel())
            if k == 0:
                continue
            thresh = w.kthvalue(k).values
            self.masks[i] = (m.weight.abs() > thresh).float()

    @torch.no_grad()
    def apply(self):
        for m, mask in zip(self.layers, self.masks):
            m.weight.mul_(mask)

    def sparsity(self):
        zeros = sum((m.weight == 0).sum().item() for m in self.layers)
        total = sum(m.weight.numel() for m in self.layers)
        return zeros / total


def cubic_sparsity(step, final, start, end):
    if step < start:
        return 0.0
    if step >= end:
        return final
    frac = (step - start) / (end - start)
    return final * (1 - (1 - frac) ** 3)
