import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, MixtureSameFamily, MultivariateNormal


class CholeskyGMM(nn.Module):
    def __init__(self, k, d, init_means):
        super().__init__()
        self.k, self.d = k, d
        self.logits = nn.Parameter(torch.zeros(k))
        self.means = nn.Parameter(init_means.clone())
        self.diag_raw = nn.Parameter(torch.full((k, d), 0.5413))  # softplus -> 1.0
        self.offdiag = nn.Parameter(torch.zeros(k, d * (d - 1) // 2))
        self.register_buffer("tril_idx", torch.tril_indices(d, d, offset=-1))

    def scale_tril(self):
        L = torch.diag_embed(F.softplus(self.diag_raw) + 1e-4)
        L = L.index_put((torch.arange(self.k)[:, None], self.tril_idx[0], self.tril_idx[1]), self.offdiag)
        return L

    def component_log_prob(self, x):
        """log N(x | mu_k, L_k L_k^T) for every point and component: (N, K)."""
        L = self.scale_tril()
        diff = (x[:, None, :] - self.means[None]).unsqueeze(-1)          # N, K, D, 1
        z = torch.linalg.solve_triangular(L.expand(x.shape[0], -1, -1, -1), diff, upper=False)
        maha = z.squeeze(-1).pow(2).sum(-1)                              # N, K
        log_norm = -0.5 * self.d * math.log(2 * math.pi) + torch.log(torch.diagonal(L, dim1=-2, dim2=-1)).sum(-1)
        return log_norm - 0.5 * maha

    def log_prob(self, x):
        return torch.logsumexp(F.log_softmax(self.logits, 0) + self.component_log_prob(x), dim=1)

    def as_distribution(self):
        return MixtureSameFamily(Categorical(logits=self.logits),
                                 MultivariateNormal(self.means, scale_tril=self.scale_tril()))
