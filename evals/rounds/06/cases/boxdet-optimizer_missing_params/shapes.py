import torch

CLASSES = ("ring", "disk", "cross")


def render(n, size=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    imgs = 0.15 * torch.randn(n, 1, size, size, generator=g)
    labels = torch.randint(0, len(CLASSES), (n,), generator=g)
    boxes = torch.zeros(n, 4)
    for i in range(n):
        r = 3 + torch.rand(1, generator=g).item() * 5
        cx = r + torch.rand(1, generator=g).item() * (size - 2 * r)
        cy = r + torch.rand(1, generator=g).item() * (size - 2 * r)
        d = ((xx - cx) ** 2 + (yy - cy) ** 2).sqrt()
        if labels[i] == 0:
            m = ((d < r) & (d > r - 1.5)).float()
        elif labels[i] == 1:
            m = (d < r).float()
        else:
            m = (((xx - cx).abs() < 1.0) | ((yy - cy).abs() < 1.0)).float() * ((xx - cx).abs() < r).float() * ((yy - cy).abs() < r).float()
        imgs[i, 0] += m
        boxes[i] = torch.tensor([cx / size, cy / size, 2 * r / size, 2 * r / size])
    return imgs, labels, boxes


def box_iou(a, b):
    """a, b: (N, 4) as (cx, cy, w, h). Returns (N,) IoU."""
    a1, a2 = a[:, :2] - a[:, 2:] / 2, a[:, :2] + a[:, 2:] / 2
    b1, b2 = b[:, :2] - b[:, 2:] / 2, b[:, :2] + b[:, 2:] / 2
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(min=0).prod(dim=1)
    union = a[:, 2:].prod(dim=1) + b[:, 2:].prod(dim=1) - inter
    return inter / union.clamp(min=1e-8)
