import torch
import torch.nn as nn


class RelationNetwork(nn.Module):
    def __init__(self, obj_dim, q_dim, n_answers, hidden=96):
        super().__init__()
        self.q_dim, self.hidden = q_dim, hidden
        self.obj_proj = nn.Linear(obj_dim, hidden)
        self.g = nn.Sequential(nn.Linear(3 * hidden, hidden), nn.ReLU(),
                               nn.Linear(hidden, hidden), nn.ReLU(),
                               nn.Linear(hidden, hidden), nn.ReLU())
        self.f = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(0.1),
                               nn.Linear(hidden, n_answers))

    def embed_question(self, q):
        self.q_proj = nn.Linear(self.q_dim, self.hidden)
        return self.q_proj(q)

    def forward(self, objs, q):
        b, n, _ = objs.shape
        o = self.obj_proj(objs)                       # (B, N, H)
        qe = self.embed_question(q)                   # (B, H)
        oi = o.unsqueeze(2).expand(b, n, n, -1)
        oj = o.unsqueeze(1).expand(b, n, n, -1)
        qq = qe[:, None, None, :].expand(b, n, n, -1)
        pairs = torch.cat([oi, oj, qq], dim=-1)       # (B, N, N, 3H)
        rel = self.g(pairs).sum(dim=(1, 2))
        return self.f(rel)
