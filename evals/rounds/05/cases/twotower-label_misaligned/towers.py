import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(d_in, hidden, d_out):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, d_out))


class TwoTower(nn.Module):
    def __init__(self, user_dim, item_dim, hidden, embed_dim):
        super().__init__()
        self.user_tower = mlp(user_dim, hidden, embed_dim)
        self.item_tower = mlp(item_dim, hidden, embed_dim)

    def users(self, x):
        return F.normalize(self.user_tower(x), dim=-1)

    def items(self, x):
        return F.normalize(self.item_tower(x), dim=-1)


def in_batch_softmax_loss(u, v, log_q, temperature, correct=True):
    """u, v: (B, D) normalized embeddings of positive pairs; log_q: (B,) for the items in v."""
    logits = u @ v.T / temperature
    if correct:
        logits = logits - log_q[None, :]
    labels = torch.arange(len(u))
    return F.cross_entropy(logits, labels)
