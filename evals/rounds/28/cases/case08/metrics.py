import torch


def binary_accuracy(logits, targets, threshold=0.5):
    preds = (torch.sigmoid(logits) > threshold).float()
    return (preds == targets).float().mean().item()
