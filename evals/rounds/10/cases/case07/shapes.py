import numpy as np
import torch


def sd_box(p, half, r):
    q = p.abs() - half + r
    outside = torch.clamp(q, min=0).norm(dim=-1)
    inside = torch.clamp(q.max(dim=-1).values, max=0)
    return outside + inside - r


def sd_circle(p, c, rad):
    return (p - c).norm(dim=-1) - rad


def shape_sdf(p):
    box = sd_box(p, torch.tensor([0.6, 0.4]), 0.1)
    bite = sd_circle(p, torch.tensor([0.55, 0.35]), 0.3)
    return torch.maximum(box, -bite)


def surface_samples(n, rng):
    """Project random points onto the zero level set with a few Newton steps."""
    p = torch.from_numpy(rng.uniform(-1, 1, size=(4 * n, 2)).astype(np.float32))
    for _ in range(30):
        p.requires_grad_(True)
        d = shape_sdf(p)
        (g,) = torch.autograd.grad(d.sum(), p)
        p = (p - d.unsqueeze(-1) * g).detach()
    p.requires_grad_(True)
    d = shape_sdf(p)
    (g,) = torch.autograd.grad(d.sum(), p)
    keep = d.abs() < 1e-3
    normals = g / g.norm(dim=-1, keepdim=True)
    return p.detach()[keep][:n], normals.detach()[keep][:n]
