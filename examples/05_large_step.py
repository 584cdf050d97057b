"""Step size on L = 0.5 w²: one SGD step gives w_new = (1 - lr) w.

lr 0.5 halves w each step. lr 2.2 flips the sign and multiplies |w| by 1.2, so the
loss grows by 1.44 per step. The threshold lr = 2 belongs to this quadratic only.
"""

import torch

for lr in (0.5, 2.2):
    w = torch.tensor(1.0, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=lr)
    print(f"lr = {lr}: w_new = {1 - lr:+.1f} * w, loss ratio per step = {(1 - lr) ** 2:.2f}")
    prev_loss = None
    for step in range(5):
        loss = 0.5 * w**2
        ratio = "" if prev_loss is None else f"  ratio {loss.item() / prev_loss:.4f}"
        print(f"  step {step}: w = {w.item():+.4f}  loss = {loss.item():.4f}{ratio}")
        prev_loss = loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
