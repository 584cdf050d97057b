import numpy as np
import torch
import torch.nn.functional as F


def one_hot(y, n):
    return F.one_hot(y, n).float()


def mixup(x, y_soft, alpha, rng):
    lam = float(rng.beta(alpha, alpha))
    perm = torch.from_numpy(rng.permutation(len(x)))
    return lam * x + (1 - lam) * x[perm], lam * y_soft + (1 - lam) * y_soft[perm]


def cutmix(x, y_soft, alpha, rng):
    lam = float(rng.beta(alpha, alpha))
    perm = torch.from_numpy(rng.permutation(len(x)))
    H, W = x.shape[-2:]
    ch, cw = int(H * np.sqrt(1 - lam)), int(W * np.sqrt(1 - lam))
    cy, cx = rng.integers(H), rng.integers(W)
    y0, y1 = max(cy - ch // 2, 0), min(cy + ch // 2, H)
    x0, x1 = max(cx - cw // 2, 0), min(cx + cw // 2, W)
    x = x.clone()
    x[..., y0:y1, x0:x1] = x[perm][..., y0:y1, x0:x1]
    lam = 1 - (y1 - y0) * (x1 - x0) / (H * W)          # area actually pasted
    return x, lam * y_soft + (1 - lam) * y_soft[perm]


def soft_cross_entropy(scores, target_dist):
    return -(target_dist * F.log_softmax(scores, dim=-1)).sum(-1).mean()
