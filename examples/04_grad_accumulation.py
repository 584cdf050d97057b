"""backward() adds into .grad; it does not replace it.

For L = w² at w = 1 the gradient is 2. A second backward on a newly computed loss,
without clearing, gives 4. Clearing (zero_grad) before each backward gives 2 again.
"""

import torch

w = torch.tensor(1.0, requires_grad=True)

(w**2).backward()
print(f"after 1 backward: w.grad = {w.grad.item():.1f}")

(w**2).backward()
print(f"after 2 backwards without clearing: w.grad = {w.grad.item():.1f}")

optimizer = torch.optim.SGD([w], lr=0.1)
optimizer.zero_grad()
print(f"after optimizer.zero_grad(): w.grad = {w.grad}")
(w**2).backward()
print(f"after clearing and 1 backward: w.grad = {w.grad.item():.1f}")
