import torch
import torch.nn.functional as F
from torch import nn


class FocalBCE(nn.Module):
    """Binary focal loss (Lin et al.) on logits.

    alpha weights the positive class, gamma down-weights easy examples.
    Argument order follows sklearn's losses: (y_true, y_pred); y_pred are logits.
    """

    def __init__(self, alpha=0.75, gamma=2.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, y_true, y_pred):
        bce = F.binary_cross_entropy_with_logits(y_pred, y_true, reduction="none")
        p = torch.sigmoid(y_pred)
        p_t = p * y_true + (1 - p) * (1 - y_true)
        a_t = self.alpha * y_true + (1 - self.alpha) * (1 - y_true)
        return (a_t * (1 - p_t) ** self.gamma * bce).mean()
