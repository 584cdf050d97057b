import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gaussian_log_prob(x, mu, sigma):
    return (-0.5 * ((x - mu) / sigma) ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)).sum()


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(n_out, n_in).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((n_out, n_in), -5.0))
        self.b_mu = nn.Parameter(torch.zeros(n_out))
        self.b_rho = nn.Parameter(torch.full((n_out,), -5.0))
        self.register_buffer("prior_sigma", torch.tensor(float(prior_sigma)))
        self.kl = torch.tensor(0.0)

    def forward(self, x):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
        b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        # single-sample Monte-Carlo estimate of KL(q || p)
        log_q = gaussian_log_prob(w, self.w_mu, w_sigma) + gaussian_log_prob(b, self.b_mu, b_sigma)
        zero = torch.zeros(())
        log_prior = gaussian_log_prob(w, zero, self.prior_sigma) + gaussian_log_prob(b, zero, self.prior_sigma)
        self.kl = log_q - log_prior
        return F.linear(x, w, b)


class BayesMLP(nn.Module):
    def __init__(self, d_in, hidden, prior_sigma):
        super().__init__()
        self.l1 = BayesLinear(d_in, hidden, prior_sigma)
        self.l2 = BayesLinear(hidden, hidden, prior_sigma)
        self.l3 = BayesLinear(hidden, 1, prior_sigma)

    def forward(self, x):
        h = torch.relu(self.l1(x))
        h = torch.relu(self.l2(h))
        return self.l3(h).squeeze(-1)

    def kl(self):
        return self.l1.kl + self.l2.kl + self.l3.kl
