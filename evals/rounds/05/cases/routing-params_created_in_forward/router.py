import torch
import torch.nn as nn


class AttentionRouter(nn.Module):
    """Iterative routing: parts -> slots, softmax over slots (slots compete for parts)."""

    def __init__(self, dim, n_slots, iters=3):
        super().__init__()
        self.n_slots, self.iters, self.dim = n_slots, iters, dim
        self.slots_init = nn.Parameter(torch.randn(1, n_slots, dim) * dim ** -0.5)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.update = nn.GRUCell(dim, dim)
        self.norm_parts = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)

    def forward(self, parts):
        B, N, D = parts.shape
        parts = self.norm_parts(parts)
        k, v = self.to_k(parts), self.to_v(parts)
        slots = self.slots_init.expand(B, -1, -1)
        for _ in range(self.iters):
            q = self.to_q(self.norm_slots(slots))
            logits = torch.einsum("bsd,bnd->bsn", q, k) * D ** -0.5
            assign = logits.softmax(dim=1) + 1e-8                  # compete over slots
            assign = assign / assign.sum(dim=-1, keepdim=True)     # weighted mean over parts
            updates = torch.einsum("bsn,bnd->bsd", assign, v)
            slots = self.update(updates.reshape(-1, D), slots.reshape(-1, D)).view(B, self.n_slots, D)
        return slots


class RoutingClassifier(nn.Module):
    def __init__(self, in_dim, n_classes, dim=32, n_slots=4, iters=3):
        super().__init__()
        self.n_classes = n_classes
        self.encode = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.router = AttentionRouter(dim, n_slots, iters)

    def forward(self, x):
        slots = self.router(self.encode(x))
        flat = slots.flatten(1)
        # readout sized from the routed representation (n_slots * dim)
        self.readout = nn.Linear(flat.shape[-1], self.n_classes)
        return self.readout(flat)
