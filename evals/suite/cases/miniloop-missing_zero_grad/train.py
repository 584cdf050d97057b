"""Mechanics check: fit y = 2x + 1 on five clean points with a single linear unit."""
import random

import numpy as np
import torch
from torch import nn

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


def main():
    x = torch.tensor([[1.0], [2.0], [3.0], [4.0], [5.0]])  # [5, 1]
    y = 2 * x + 1  # [5, 1], the exact target

    model = nn.Linear(1, 1)
    loss_fn = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

    for step in range(300):
        pred = model(x)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step:4d}  loss {loss.item():.6f}")

    w = model.weight.item()
    b = model.bias.item()
    print(f"final loss {loss.item():.2e}")
    print(f"weight {w:.4f} (target 2), bias {b:.4f} (target 1)")
    print(f"METRIC weight={w:.4f}")
    print(f"METRIC bias={b:.4f}")
    print(f"METRIC weight_error={abs(w - 2) + abs(b - 1):.4f}")


if __name__ == "__main__":
    main()
