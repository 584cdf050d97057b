import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MDNRNN(nn.Module):
    def __init__(self, d_in=2, hidden=64, n_mix=5):
        super().__init__()
        self.n_mix = n_mix
        self.lstm = nn.LSTM(d_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_mix * 5)

    def forward(self, x, state=None):
        h, state = self.lstm(x, state)
        p = self.head(h)                                        # (B, T, 5K)
        logit_pi, mu, log_sigma = p.split([self.n_mix, 2 * self.n_mix, 2 * self.n_mix], dim=-1)
        B, T, _ = p.shape
        mu = mu.view(B, T, self.n_mix, 2)
        log_sigma = log_sigma.view(B, T, self.n_mix, 2).clamp(-5.0, 3.0)
        return F.log_softmax(logit_pi, dim=-1), mu, log_sigma, state


def mdn_nll(log_pi, mu, log_sigma, target):
    """Mean negative log-likelihood of target (B, T, 2) under the mixture."""
    z = (target.unsqueeze(2) - mu) / log_sigma.exp()             # (B, T, K, 2)
    log_comp = -0.5 * (z ** 2).sum(-1) - log_sigma.sum(-1) - math.log(2 * math.pi)
    return -torch.logsumexp(log_pi + log_comp, dim=-1).mean()
