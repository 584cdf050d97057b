import numpy as np
import torch
import torch.nn as nn


def scatter_sum(messages, index, n_nodes):
    """Sum edge messages into their destination nodes (numpy add.at keeps
    repeated indices correct)."""
    out = np.zeros((messages.shape[0], n_nodes, messages.shape[-1]), dtype=np.float32)
    np.add.at(out, (slice(None), index), messages.detach().cpu().numpy())
    return torch.from_numpy(out)


class EdgeConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Sequential(nn.Linear(2 * dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.upd = nn.Sequential(nn.Linear(2 * dim, dim), nn.SiLU())

    def forward(self, h, edges):
        src, dst = edges
        m = self.msg(torch.cat([h[:, src], h[:, dst]], dim=-1))
        agg = scatter_sum(m, dst, h.shape[1])
        return h + self.upd(torch.cat([h, agg], dim=-1))
