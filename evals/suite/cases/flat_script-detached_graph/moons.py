# Two moons classifier -- exported from a notebook, everything runs top to bottom.

# %% setup
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(123)
np.random.seed(123)
torch.manual_seed(123)

N = 1000
NOISE = 0.2
n_epochs = 20
batch_size = 50
lr = 0.02

# %% data: two interleaving half circles
n_top = N // 2
t = torch.rand(N) * math.pi
X = torch.empty(N, 2)
X[:n_top, 0] = torch.cos(t[:n_top])
X[:n_top, 1] = torch.sin(t[:n_top])
X[n_top:, 0] = 1 - torch.cos(t[n_top:])
X[n_top:, 1] = 0.5 - torch.sin(t[n_top:])
X += NOISE * torch.randn(N, 2)
y = torch.cat([torch.zeros(n_top), torch.ones(N - n_top)])

# %% split 80/20 with a single shuffle
perm = torch.randperm(N)
n_train = int(0.8 * N)
X_train, y_train = X[perm[:n_train]], y[perm[:n_train]]
X_val, y_val = X[perm[n_train:]], y[perm[n_train:]]
print("X_train", X_train.shape, "y_train", y_train.shape, "positives", int(y_train.sum()))

# %% model
model = nn.Sequential(
    nn.Linear(2, 32),
    nn.Tanh(),
    nn.Linear(32, 32),
    nn.Tanh(),
    nn.Linear(32, 1),
)
opt = torch.optim.Adam(model.parameters(), lr=lr)

# %% train
history = []
for epoch in range(n_epochs):
    model.train()
    idx = torch.randperm(n_train)
    for i in range(0, n_train, batch_size):
        batch = idx[i:i + batch_size]
        xb, yb = X_train[batch], y_train[batch]
        logits = model[-1](model[:-1](xb).detach()).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(loss.item())
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}")

# %% validation
model.eval()
with torch.no_grad():
    val_logits = model(X_val).squeeze(1)
    val_loss = F.binary_cross_entropy_with_logits(val_logits, y_val).item()
    val_pred = (val_logits > 0).float()
    val_acc = (val_pred == y_val).float().mean().item()

print(f"val loss {val_loss:.4f}  val acc {val_acc:.4f}")
print(f"METRIC val_acc={val_acc:.4f}")
