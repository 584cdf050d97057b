"""Mechanics test: fit five clean points of y = 2x + 1.

If a single linear unit cannot fit this, the training loop is broken. Passing says
the update works; it says nothing about held-out performance.
"""

import torch
import torch.nn as nn

torch.manual_seed(0)

x = torch.tensor([[1.0], [2.0], [3.0], [4.0], [5.0]])  # [5, 1]
y = 2 * x + 1  # [5, 1], the same shape as the predictions

model = nn.Linear(1, 1)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(500):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if step in (0, 10, 100, 499):
        print(f"step {step:3d}: loss {loss.item():.8f}")

weight, bias = model.weight.item(), model.bias.item()
print(f"weight = {weight:.4f} (target 2)")
print(f"bias = {bias:.4f} (target 1)")
