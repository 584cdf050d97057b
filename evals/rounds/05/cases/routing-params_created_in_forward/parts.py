import math

import torch

SHAPES = {
    "triangle": [(0, 1), (-0.87, -0.5), (0.87, -0.5)],
    "square": [(-1, -1), (-1, 1), (1, 1), (1, -1)],
    "line": [(-1.5, 0), (-0.5, 0), (0.5, 0), (1.5, 0)],
    "cross": [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)],
    "arrow": [(0, 1.2), (-0.7, 0.4), (0.7, 0.4), (0, 0), (0, -1)],
    "vee": [(-1, 1), (-0.5, 0), (0, -1), (0.5, 0), (1, 1)],
}
N_PARTS = 6   # padded with clutter detections


def sample_sets(n, seed):
    g = torch.Generator().manual_seed(seed)
    names = list(SHAPES)
    X = torch.zeros(n, N_PARTS, 4)      # x, y, confidence, part size
    y = torch.randint(len(names), (n,), generator=g)
    for i in range(n):
        pts = torch.tensor(SHAPES[names[y[i]]], dtype=torch.float32)
        ang = float(torch.rand(1, generator=g)) * 0.6 - 0.3
        rot = torch.tensor([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        scale = 0.7 + 0.6 * float(torch.rand(1, generator=g))
        pts = pts @ rot.T * scale + torch.randn(2, generator=g) * 0.5
        pts = pts + torch.randn(pts.shape, generator=g) * 0.08
        k = len(pts)
        X[i, :k, :2] = pts
        X[i, :k, 2] = 0.7 + 0.3 * torch.rand(k, generator=g)
        X[i, :k, 3] = 1.0
        if k < N_PARTS:        # clutter: low-confidence random detections
            X[i, k:, :2] = torch.randn(N_PARTS - k, 2, generator=g) * 1.5
            X[i, k:, 2] = 0.3 * torch.rand(N_PARTS - k, generator=g)
            X[i, k:, 3] = 0.3
        X[i] = X[i, torch.randperm(N_PARTS, generator=g)]
    return X, y
