import torch
import torch.nn as nn


class MeanConv(nn.Module):
    """h_i' = act(W_self h_i + W_nb mean_{j->i} h_j)"""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nb_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, h[src])
        deg = torch.zeros(h.size(0)).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
        return torch.relu(self.self_lin(h) + self.nb_lin(agg / deg[:, None]))
