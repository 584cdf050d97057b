"""Cumulative-logit (CORAL) helpers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CoralHead(nn.Module):
    """One shared weight vector, K-1 ordered biases."""

    def __init__(self, in_features, num_classes):
        super().__init__()
        self.fc = nn.Linear(in_features, 1, bias=False)
        self.bias = nn.Parameter(torch.arange(num_classes - 1, 0, -1).float() / (num_classes - 1))

    def forward(self, h):
        return self.fc(h) + self.bias  # (N, K-1) logits for P(grade > k)


def grade_to_levels(grade, num_classes):
    """Extended binary targets: level k is 1 when the grade lies above the
    k-th cut-point between consecutive grades."""
    thresholds = torch.arange(1, num_classes, device=grade.device)
    return (grade.unsqueeze(1) > thresholds).float()


def coral_loss(logits, levels):
    return F.binary_cross_entropy_with_logits(logits, levels, reduction="none").sum(1).mean()


def logits_to_grade(logits):
    return (torch.sigmoid(logits) > 0.5).sum(1)
