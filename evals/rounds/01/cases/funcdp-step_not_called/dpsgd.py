"""DP-SGD pieces built on torch.func."""
import torch
from torch.func import functional_call, grad, vmap


def make_per_example_grads(model, loss_fn):
    def sample_loss(params, buffers, x, y):
        out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
        return loss_fn(out, y.unsqueeze(0))

    return vmap(grad(sample_loss), in_dims=(None, None, 0, 0))


def clip_and_noise(per_example, clip_norm, noise_multiplier, generator):
    names = list(per_example)
    B = per_example[names[0]].shape[0]
    flat = torch.cat([per_example[k].reshape(B, -1) for k in names], dim=1)
    factor = (clip_norm / (flat.norm(dim=1) + 1e-6)).clamp(max=1.0)
    out = {}
    for k in names:
        g = (per_example[k] * factor.view(-1, *[1] * (per_example[k].dim() - 1))).sum(0)
        g = g + noise_multiplier * clip_norm * torch.randn(g.shape, generator=generator)
        out[k] = g / B
    return out


def momentum_update(params, grads, velocity, lr, momentum):
    """Heavy-ball SGD on plain tensors (no autograd state involved)."""
    for name, p in params.items():
        velocity[name].mul_(momentum).add_(grads[name])
        p = p - lr * velocity[name]
    return params
