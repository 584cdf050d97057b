import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttention(nn.Module):
    """Multi-head GAT layer on a dense adjacency matrix (self-loops added here)."""

    def __init__(self, d_in, d_out, heads, concat=True, attn_dropout=0.0, slope=0.2):
        super().__init__()
        self.heads, self.d_out, self.concat = heads, d_out, concat
        self.proj = nn.Linear(d_in, heads * d_out, bias=False)
        self.att_src = nn.Parameter(torch.empty(heads, d_out))
        self.att_dst = nn.Parameter(torch.empty(heads, d_out))
        self.bias = nn.Parameter(torch.zeros(heads * d_out if concat else d_out))
        self.attn_dropout = nn.Dropout(attn_dropout)
        self.slope = slope
        nn.init.xavier_uniform_(self.proj.weight)
        nn.init.xavier_uniform_(self.att_src)
        nn.init.xavier_uniform_(self.att_dst)

    def forward(self, x, adj):
        n = x.shape[0]
        h = self.proj(x).view(n, self.heads, self.d_out)                  # [N, H, F]
        e_src = (h * self.att_src).sum(-1)                                 # [N, H]
        e_dst = (h * self.att_dst).sum(-1)                                 # [N, H]
        scores = F.leaky_relu(e_dst.t()[:, :, None] + e_src.t()[:, None, :], self.slope)  # [H, dst, src]
        mask = adj | torch.eye(n, dtype=torch.bool)
        scores = scores.masked_fill(~mask, float("-inf"))
        alpha = self.attn_dropout(torch.softmax(scores, dim=-1))
        out = torch.einsum("hij,jhf->ihf", alpha, h)                       # [N, H, F]
        out = out.reshape(n, -1) if self.concat else out.mean(1)
        return out + self.bias
