import torch
import torch.nn as nn


class CellNet(nn.Module):
    def __init__(self, n_feat, chem_table, hidden=128, n_out=3):
        super().__init__()
        self.chem = nn.Embedding.from_pretrained(torch.as_tensor(chem_table), freeze=True)
        self.feat_mean = nn.Parameter(torch.zeros(n_feat), requires_grad=False)
        self.feat_std = nn.Parameter(torch.ones(n_feat), requires_grad=False)
        d = n_feat + chem_table.shape[1]
        self.body = nn.Sequential(nn.Linear(d, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                  nn.Linear(hidden, n_out))

    def forward(self, x: torch.Tensor, chem: torch.Tensor) -> torch.Tensor:
        x = (x - self.feat_mean) / self.feat_std
        return self.body(torch.cat([x, self.chem(chem)], dim=-1))
