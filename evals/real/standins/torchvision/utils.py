"""make_grid and save_image; the PNG is written with zlib, no imaging library needed."""

import struct
import zlib

import torch


def make_grid(tensor, nrow=8, padding=2, normalize=False, value_range=None, scale_each=False,
              pad_value=0.0, **kwargs):
    if isinstance(tensor, (list, tuple)):
        tensor = torch.stack(list(tensor), dim=0)
    tensor = tensor.detach().float().clone()
    if tensor.dim() == 2:
        tensor = tensor.unsqueeze(0)
    if tensor.dim() == 3:
        tensor = tensor.unsqueeze(0)
    if tensor.size(1) == 1:
        tensor = tensor.repeat(1, 3, 1, 1)
    if normalize:
        def norm(t, lo, hi):
            t.clamp_(min=lo, max=hi).sub_(lo).div_(max(hi - lo, 1e-5))
        if scale_each:
            for t in tensor:
                lo, hi = value_range if value_range is not None else (float(t.min()), float(t.max()))
                norm(t, lo, hi)
        else:
            lo, hi = value_range if value_range is not None else (float(tensor.min()), float(tensor.max()))
            norm(tensor, lo, hi)
    n, c, h, w = tensor.shape
    xmaps = min(nrow, n)
    ymaps = (n + xmaps - 1) // xmaps
    hh, ww = h + padding, w + padding
    grid = tensor.new_full((c, hh * ymaps + padding, ww * xmaps + padding), pad_value)
    for k in range(n):
        y, x = divmod(k, xmaps)
        grid[:, y * hh + padding : y * hh + padding + h, x * ww + padding : x * ww + padding + w] = tensor[k]
    return grid


def _png(path, pixels):  # pixels: uint8 tensor (H, W, 3)
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + bytes(pixels[y].flatten().tolist()) for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw)))
        f.write(chunk(b"IEND", b""))


def save_image(tensor, fp, format=None, **kwargs):
    grid = make_grid(tensor, **kwargs)
    pixels = grid.mul(255).add_(0.5).clamp_(0, 255).permute(1, 2, 0).to(torch.uint8)
    _png(fp, pixels)


__all__ = ["make_grid", "save_image"]
