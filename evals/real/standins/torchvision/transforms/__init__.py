"""Compose, ToTensor, Normalize, Resize, CenterCrop and Lambda, on a minimal image type."""

import numpy as np
import torch
import torch.nn.functional as F


class Image:
    """What the stand-in datasets return in place of a PIL image: uint8 pixels, HxW or HxWxC."""

    def __init__(self, array):
        self.array = np.asarray(array, dtype=np.uint8)
        self.mode = "L" if self.array.ndim == 2 else "RGB"

    @property
    def size(self):  # PIL order: (width, height)
        return self.array.shape[1], self.array.shape[0]


def _as_chw_float(img):
    if isinstance(img, Image):
        a = torch.from_numpy(img.array.copy()).float()
        return (a.unsqueeze(0) if a.dim() == 2 else a.permute(2, 0, 1)), True
    return img, False


def _back(t, was_image):
    if not was_image:
        return t
    a = t.round().clamp(0, 255).to(torch.uint8)
    a = a[0] if a.shape[0] == 1 else a.permute(1, 2, 0)
    return Image(a.numpy())


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img


class ToTensor:
    def __call__(self, pic):
        if isinstance(pic, Image):
            t = torch.from_numpy(pic.array.copy())
            t = t.unsqueeze(0) if t.dim() == 2 else t.permute(2, 0, 1)
            return t.float().div(255)
        if isinstance(pic, np.ndarray):
            t = torch.from_numpy(pic.copy())
            t = t.unsqueeze(0) if t.dim() == 2 else t.permute(2, 0, 1)
            return t.float().div(255) if t.dtype == torch.uint8 else t.float()
        raise TypeError(f"ToTensor stand-in got {type(pic)}")


class Normalize:
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std = mean, std

    def __call__(self, tensor):
        mean = torch.as_tensor(self.mean, dtype=tensor.dtype).view(-1, 1, 1)
        std = torch.as_tensor(self.std, dtype=tensor.dtype).view(-1, 1, 1)
        return (tensor - mean) / std


class Resize:
    """Resize the shorter side to `size` (an int) or to (h, w), bilinear with antialiasing."""

    def __init__(self, size, interpolation=None, antialias=True):
        self.size = size

    def __call__(self, img):
        t, was_image = _as_chw_float(img)
        h, w = t.shape[-2:]
        if isinstance(self.size, int):
            if h <= w:
                oh, ow = self.size, int(self.size * w / h)
            else:
                oh, ow = int(self.size * h / w), self.size
        else:
            oh, ow = self.size
        if (oh, ow) != (h, w):
            t = F.interpolate(t.unsqueeze(0), size=(oh, ow), mode="bilinear",
                              align_corners=False, antialias=True)[0]
        return _back(t, was_image)


class CenterCrop:
    def __init__(self, size):
        self.size = (size, size) if isinstance(size, int) else tuple(size)

    def __call__(self, img):
        t, was_image = _as_chw_float(img)
        h, w = t.shape[-2:]
        oh, ow = self.size
        top, left = max((h - oh) // 2, 0), max((w - ow) // 2, 0)
        return _back(t[..., top : top + oh, left : left + ow], was_image)


class Lambda:
    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)


__all__ = ["Compose", "ToTensor", "Normalize", "Resize", "CenterCrop", "Lambda", "Image"]
