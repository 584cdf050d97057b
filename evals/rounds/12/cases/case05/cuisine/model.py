import torch
from torch import nn
import torch.nn.functional as F


class CuisineClassifier(nn.Module):
    """Mean of (frozen) pretrained ingredient vectors + a trainable sparse linear path."""

    def __init__(self, pretrained, n_classes, hidden=64, p_drop=0.3):
        super().__init__()
        n_ing, dim = pretrained.shape
        self.ingredient_vectors = nn.Parameter(torch.from_numpy(pretrained))
        # pretrained on co-occurrence of the whole pantry; keep it fixed so the
        # small labelled set does not drag rare ingredients around
        self.ingredient_vectors.requires_grad_(False)
        self.lexical = nn.Linear(n_ing, hidden)
        self.mlp = nn.Sequential(nn.Linear(dim + hidden, hidden), nn.ReLU(), nn.Dropout(p_drop),
                                 nn.Linear(hidden, n_classes))

    def forward(self, multi_hot):
        counts = multi_hot.sum(1, keepdim=True).clamp(min=1)
        pooled = multi_hot @ self.ingredient_vectors / counts
        h = torch.cat([pooled, F.relu(self.lexical(multi_hot))], dim=1)
        return F.log_softmax(self.mlp(h), dim=-1)
