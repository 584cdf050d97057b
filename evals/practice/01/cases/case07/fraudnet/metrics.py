"""Binary classification metrics for the fraud class (label 1)."""
import torch


def _count(pred, target, p, t):
    return int(((pred == p) & (target == t)).sum())


def confusion(pred, target):
    pred = pred.long()
    target = target.long()
    tp = _count(pred, target, 1, 1)
    fp = _count(pred, target, 1, 0)
    fn = _count(pred, target, 0, 0)
    tn = _count(pred, target, 0, 0)
    return tp, fp, fn, tn


def prf(scores, target, threshold=0.5):
    pred = (torch.sigmoid(scores) >= threshold)
    tp, fp, fn, tn = confusion(pred, target)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
