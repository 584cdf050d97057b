import torch
import torch.nn as nn

from .crystals import CUTOFF


class GaussianRBF(nn.Module):
    def __init__(self, n=16, cutoff=CUTOFF):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.0, cutoff, n))
        self.gamma = 10.0 / cutoff

    def forward(self, d):
        return torch.exp(-self.gamma * (d[:, None] - self.centers[None]) ** 2)


class Interaction(nn.Module):
    """Continuous-filter convolution: message = W(h_src) * filter(rbf(distance))."""

    def __init__(self, dim, n_rbf):
        super().__init__()
        self.filter = nn.Sequential(nn.Linear(n_rbf, dim), nn.Softplus(), nn.Linear(dim, dim))
        self.lin_in = nn.Linear(dim, dim)
        self.lin_out = nn.Sequential(nn.Linear(dim, dim), nn.Softplus(), nn.Linear(dim, dim))

    def forward(self, h, src, dst, rbf):
        msg = self.lin_in(h)[src] * self.filter(rbf)
        agg = torch.zeros_like(h).index_add_(0, dst, msg)
        return h + self.lin_out(agg)


class CrystalNet(nn.Module):
    def __init__(self, n_species=5, dim=32, n_rbf=16, n_interactions=3):
        super().__init__()
        self.embed = nn.Embedding(n_species, dim)
        self.rbf = GaussianRBF(n_rbf)
        self.interactions = [Interaction(dim, n_rbf) for _ in range(n_interactions)]
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.Softplus(), nn.Linear(dim, 1))

    def forward(self, batch):
        h = self.embed(batch["z"])
        rbf = self.rbf(batch["dist"])
        for block in self.interactions:
            h = block(h, batch["src"], batch["dst"], rbf)
        per_atom = self.readout(h).squeeze(-1)
        total = torch.zeros(batch["n_graphs"]).index_add_(0, batch["graph"], per_atom)
        counts = torch.zeros(batch["n_graphs"]).index_add_(0, batch["graph"], torch.ones_like(per_atom))
        return total / counts
