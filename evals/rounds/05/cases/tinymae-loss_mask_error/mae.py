import torch
import torch.nn as nn


def random_masking(batch, n_patches, ratio, generator=None):
    """Boolean (B, N) mask with `ratio` of the patches selected per sample.

    True marks a patch the encoder is allowed to see.
    """
    n_keep = int(round(n_patches * (1 - ratio)))
    noise = torch.rand(batch, n_patches, generator=generator)
    ranks = noise.argsort(dim=1).argsort(dim=1)
    return ranks < n_keep


def masked_mse(pred, target, mask):
    """Mean squared error over the patches flagged in `mask` (B, N)."""
    per_patch = ((pred - target) ** 2).mean(dim=-1)
    mask = mask.float()
    return (per_patch * mask).sum() / mask.sum().clamp_min(1.0)


class TinyMAE(nn.Module):
    def __init__(self, n_patches, patch_dim, dim=48, depth=2, heads=4):
        super().__init__()
        self.embed = nn.Linear(patch_dim, dim)
        self.pos = nn.Parameter(torch.randn(1, n_patches, dim) * 0.02)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.to_pixels = nn.Linear(dim, patch_dim)

    def forward(self, patches, visible):
        x = self.embed(patches)
        x = torch.where(visible[..., None], x, self.mask_token.expand_as(x))
        return self.to_pixels(self.blocks(x + self.pos))
