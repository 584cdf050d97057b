"""MNIST from the IDX files in ROOT/MNIST/raw (written there by the suite's data scripts)."""

import os

import numpy as np
import torch
from torch.utils.data import Dataset

from ..transforms import Image


def _read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


class MNIST(Dataset):
    classes = [f"{i} - {w}" for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        self.root = os.path.expanduser(str(root))
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        prefix = "train" if train else "t10k"
        raw = os.path.join(self.root, "MNIST", "raw")
        images = os.path.join(raw, f"{prefix}-images-idx3-ubyte")
        labels = os.path.join(raw, f"{prefix}-labels-idx1-ubyte")
        if not (os.path.isfile(images) and os.path.isfile(labels)):
            # The suite never downloads: the data script must have written the files.
            raise RuntimeError(f"Dataset not found in {raw} (download={download}; no network here)")
        self.data = torch.from_numpy(_read_idx(images).copy())
        self.targets = torch.from_numpy(_read_idx(labels).astype(np.int64))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img, target = Image(self.data[index].numpy()), int(self.targets[index])
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target
