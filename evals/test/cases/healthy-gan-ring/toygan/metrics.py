import torch

from toygan.data import STD, mode_centers


def mode_stats(samples):
    d = torch.cdist(samples, mode_centers())
    nearest_dist, nearest = d.min(dim=1)
    good = nearest_dist < 3 * STD
    covered = torch.bincount(nearest[good], minlength=len(mode_centers())) >= 20
    return int(covered.sum()), good.float().mean().item()


def rbf_mmd(x, y, bandwidths=(0.1, 0.5, 1.0)):
    xy = torch.cat([x, y])
    d2 = torch.cdist(xy, xy) ** 2
    k = sum(torch.exp(-d2 / (2 * h ** 2)) for h in bandwidths)
    n = len(x)
    kxx, kyy, kxy = k[:n, :n], k[n:, n:], k[:n, n:]
    return (kxx.mean() + kyy.mean() - 2 * kxy.mean()).item()
