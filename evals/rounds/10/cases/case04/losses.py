import torch
import torch.nn.functional as F


def soft_bootstrap_bce(logits, labels, beta):
    """Reed et al. soft bootstrapping for a single logit per sample.

    target = beta * label + (1 - beta) * p_model, with p_model treated as a
    constant so the model cannot simply chase its own predictions.
    """
    p = torch.sigmoid(logits).detach()
    target = beta * labels + (1.0 - beta) * p
    return F.binary_cross_entropy_with_logits(logits, target)
