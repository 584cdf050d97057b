import numpy as np
import torch
from torch.utils.data import Dataset

KEYPOINTS = ("head", "abdomen")


def gaussian_map(size, y, x, sigma):
    yy, xx = np.mgrid[0:size, 0:size]
    return np.exp(-((yy - y) ** 2 + (xx - x) ** 2) / (2 * sigma ** 2)).astype(np.float32)


def make_frames(n, size, sigma, seed):
    rng = np.random.default_rng(seed)
    frames = np.zeros((n, 1, size, size), np.float32)
    coords = np.zeros((n, len(KEYPOINTS), 2), np.int64)       # (y, x) per keypoint
    heatmaps = np.zeros((n, size, size, len(KEYPOINTS)), np.float32)
    for i in range(n):
        hy, hx = rng.integers(3, size - 3, size=2)
        ang = rng.uniform(0, 2 * np.pi)
        ay = int(np.clip(round(hy + 3 * np.sin(ang)), 1, size - 2))
        ax = int(np.clip(round(hx + 3 * np.cos(ang)), 1, size - 2))
        img = rng.normal(0, 0.08, (size, size)).astype(np.float32)
        for _ in range(2):  # clutter
            img += 0.3 * gaussian_map(size, *rng.uniform(0, size, 2), sigma=2.5)
        img += 1.0 * gaussian_map(size, hy, hx, 0.7) + 0.6 * gaussian_map(size, ay, ax, 1.6)
        frames[i, 0] = img
        coords[i] = [(hy, hx), (ay, ax)]
        heatmaps[i] = np.stack([gaussian_map(size, y, x, sigma) for y, x in coords[i]], axis=-1)
    return frames, heatmaps, coords


class PoseFrames(Dataset):
    def __init__(self, n, size, sigma, seed):
        self.frames, self.heatmaps, self.coords = make_frames(n, size, sigma, seed)
        self.k, self.size = len(KEYPOINTS), size

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        target = torch.from_numpy(self.heatmaps[i]).reshape(self.k, self.size, self.size)
        return torch.from_numpy(self.frames[i]), target, torch.from_numpy(self.coords[i])
