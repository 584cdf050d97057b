import torch
import torch.nn as nn

from .ops import scatter_sum


class RBF(nn.Module):
    def __init__(self, n=8, cutoff=1.3):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.6, cutoff, n))
        self.gamma = 10.0

    def forward(self, d):
        return torch.exp(-self.gamma * (d[:, None] - self.centers) ** 2)


class Interaction(nn.Module):
    def __init__(self, dim, n_rbf):
        super().__init__()
        self.filter = nn.Sequential(nn.Linear(n_rbf, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.msg = nn.Linear(2 * dim, dim)
        self.update = nn.Sequential(nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, h, src, dst, rbf):
        m = self.msg(torch.cat([h[src], h[dst]], dim=1)) * self.filter(rbf)
        agg = scatter_sum(m, dst, h.shape[0])
        return h + self.update(agg)


class CrystalNet(nn.Module):
    def __init__(self, n_species, dim=32, n_rbf=8, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(n_species, dim)
        self.rbf = RBF(n_rbf)
        self.layers = nn.ModuleList(Interaction(dim, n_rbf) for _ in range(n_layers))
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, batch):
        h = self.embed(batch["species"])
        rbf = self.rbf(batch["dist"])
        for layer in self.layers:
            h = layer(h, batch["src"], batch["dst"], rbf)
        atom_e = self.readout(h).squeeze(-1)
        # mean over the atoms of each crystal
        tot = torch.zeros(batch["n_graphs"]).index_add_(0, batch["graph"], atom_e)
        cnt = torch.zeros(batch["n_graphs"]).index_add_(0, batch["graph"], torch.ones_like(atom_e))
        return tot / cnt
