import torch.nn as nn


class SmoothedNLLLoss(nn.Module):
    """NLL on log-probabilities with uniform label smoothing."""

    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing
        self.nll = nn.NLLLoss()

    def forward(self, log_probs, target):
        nll = self.nll(log_probs, target)
        uniform = -log_probs.mean(dim=1).mean()
        return (1.0 - self.smoothing) * nll + self.smoothing * uniform
