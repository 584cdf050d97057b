import torch
import torch.nn.functional as F


def displacement_error(futures, gt):
    """futures (B, K, T, 2), gt (B, T, 2) -> ADE per hypothesis (B, K)."""
    return (futures - gt[:, None]).norm(dim=-1).mean(-1)


def pick_best(futures, gt):
    ade = displacement_error(futures, gt)
    best = ade.argmin(dim=1)
    rows = torch.arange(len(gt))
    return futures.data[rows, best], best


def variety_loss(futures, mode_logits, gt, mode_weight=0.5):
    winner, best = pick_best(futures, gt)
    reg = F.smooth_l1_loss(winner, gt)
    cls = F.cross_entropy(mode_logits, best)
    return reg + mode_weight * cls, reg.item(), cls.item()
