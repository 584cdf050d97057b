import torch


def topk_accuracy(logits, target, topk=(1,)):
    """Fraction of samples whose true class is among the k highest scores."""
    maxk = max(topk)
    batch = target.size(0)
    _, pred = logits.topk(maxk, dim=1, largest=True, sorted=True)    # (B, maxk)
    correct = pred.eq(target.view(-1, 1))                              # (B, maxk)
    return [correct[:k].float().sum().item() / batch for k in topk]
