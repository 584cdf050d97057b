"""Predictions [3, 1] minus targets [3] is a [3, 3] matrix, not three differences.

Predictions 1, 2, 3 match their targets 1, 2, 3 exactly, yet the broadcast MSE is
4/3 instead of 0. The operation is valid tensor arithmetic; the statistic is wrong.
"""

import warnings

import torch
import torch.nn.functional as F

pred = torch.tensor([[1.0], [2.0], [3.0]])  # [3, 1], as a model with one output unit returns
target = torch.tensor([1.0, 2.0, 3.0])  # [3], as a dataset of scalars yields

diff = pred - target
print(f"pred {tuple(pred.shape)} - target {tuple(target.shape)} -> diff {tuple(diff.shape)}")
print("diff =")
for row in diff.tolist():
    print("   ", " ".join(f"{v:3.0f}" for v in row))

wrong = (diff**2).mean()
print(f"broadcast MSE: {wrong.item():.6f} (= 4/3 = {4 / 3:.6f})")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.mse_loss(pred, target)
print(f"F.mse_loss on the same shapes: {loss.item():.6f}, warnings raised: {len(caught)}")

right = F.mse_loss(pred.squeeze(1), target)
print(f"intended MSE (pred.squeeze(1) vs target): {right.item():.6f}")

assert pred.squeeze(1).shape == target.shape, "shape assertions are cheap insurance"
