import torch

D, H, W = 12, 16, 16


def make_volumes(n, seed):
    g = torch.Generator().manual_seed(seed)
    zz, yy, xx = torch.meshgrid(torch.arange(D).float(), torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
    vols = torch.randn(n, D, H, W, generator=g) * 0.35
    labels = torch.zeros(n, dtype=torch.long)
    for i in range(n):
        c = torch.tensor([D / 2, H / 2, W / 2]) + torch.randn(3, generator=g) * torch.tensor([1.5, 2.0, 2.0])
        kind = torch.randint(0, 4, (1,), generator=g).item()
        if kind < 2:  # nodule
            r = 1.8 + 1.2 * torch.rand(1, generator=g).item()
            d2 = (zz - c[0]) ** 2 + (yy - c[1]) ** 2 + (xx - c[2]) ** 2
            vols[i] += 1.2 * torch.exp(-d2 / (2 * r ** 2))
            labels[i] = 1
        elif kind == 2:  # vessel along a random axis
            axis = torch.randint(0, 3, (1,), generator=g).item()
            r = 1.2 + 0.8 * torch.rand(1, generator=g).item()
            grids = [zz - c[0], yy - c[1], xx - c[2]]
            grids.pop(axis)
            d2 = grids[0] ** 2 + grids[1] ** 2
            vols[i] += 1.2 * torch.exp(-d2 / (2 * r ** 2))
        else:  # speckle
            spots = (torch.rand(D, H, W, generator=g) < 0.02).float()
            vols[i] += 1.5 * spots
    return vols, labels
