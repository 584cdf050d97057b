import torch
from torch import nn

from .structures import DESCRIPTORS


class Interaction(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.msg_dst = nn.Linear(h, h)
        self.msg_src = nn.Linear(h, h, bias=False)
        self.upd = nn.GRUCell(h, h)

    def forward(self, x, adj):
        # x: (B, N, H), adj: (B, N, N)
        B, N, H = x.shape
        # message from j to i depends on both ends: W_d x_i + W_s x_j
        m = torch.relu(self.msg_dst(x).unsqueeze(2) + self.msg_src(x).unsqueeze(1)) * adj.unsqueeze(-1)
        agg = m.sum(2)
        return self.upd(agg.reshape(B * N, H), x.reshape(B * N, H)).reshape(B, N, H)


class GarnetNet(nn.Module):
    def __init__(self, hidden=48, n_interactions=3):
        super().__init__()
        desc = torch.from_numpy(DESCRIPTORS)
        desc = (desc - desc.mean(0)) / desc.std(0)
        proj = torch.randn(desc.shape[1], hidden) / desc.shape[1] ** 0.5
        self.embed = nn.Embedding(len(DESCRIPTORS) + 1, hidden, padding_idx=len(DESCRIPTORS))
        with torch.no_grad():
            self.embed.weight[:-1] = desc @ proj
            self.embed.weight[-1] = 0
        self.convs = nn.ModuleList(Interaction(hidden) for _ in range(n_interactions))
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, species, adj):
        node_mask = (species >= 0).float().unsqueeze(-1)
        idx = species.clamp(min=0) + (species < 0).long() * (self.embed.num_embeddings - 1 - species.clamp(min=0))
        x = self.embed(idx)
        for conv in self.convs:
            x = conv(x, adj) * node_mask
        return self.readout(x).mul(node_mask).sum(1).squeeze(-1) / 4.0
