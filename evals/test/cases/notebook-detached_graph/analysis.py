#!/usr/bin/env python
# coding: utf-8

# # Bearing fault classification from vibration snippets

# In[1]:


import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


# ## Simulated recordings
# Each fault type excites its own characteristic frequency; load and phase vary.

# In[2]:


FAULTS = ["healthy", "inner_race", "outer_race", "ball", "misalignment"]
FAULT_FREQ = {"healthy": 0.0, "inner_race": 11.0, "outer_race": 7.0, "ball": 15.0, "misalignment": 2.0}
SNIPPET = 128
FS = 128.0


def record(fault, rng):
    t = np.arange(SNIPPET) / FS
    shaft = 0.6 * np.sin(2 * np.pi * 1.0 * t + rng.uniform(0, 2 * np.pi))
    f = FAULT_FREQ[fault]
    sig = shaft
    if f > 0:
        load = rng.uniform(0.5, 1.0)
        f_obs = f * rng.uniform(0.97, 1.03)
        sig = sig + load * np.sin(2 * np.pi * f_obs * t + rng.uniform(0, 2 * np.pi))
    sig = sig + 0.5 * rng.normal(size=SNIPPET)
    return sig.astype(np.float32)


rng = np.random.default_rng(42)
labels = rng.integers(0, len(FAULTS), size=2500)
signals = np.stack([record(FAULTS[k], rng) for k in labels])
print(signals.shape, np.bincount(labels))


# In[3]:


X = torch.from_numpy(signals).unsqueeze(1)
y = torch.from_numpy(labels).long()
n_test = 500
X_train, y_train = X[n_test:], y[n_test:]
X_test, y_test = X[:n_test], y[:n_test]
scale = X_train.std()
X_train, X_test = X_train / scale, X_test / scale
X_train.shape, X_test.shape


# ## Model
# Small conv encoder; the embedding is kept on the module so we can plot it later.

# In[4]:


class FaultNet(nn.Module):
    def __init__(self, n_classes=5, width=16, emb_dim=6):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(1, width, kernel_size=9, padding=4),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(width, width, kernel_size=9, padding=4),
            nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
            nn.Flatten(),
            nn.Linear(width, emb_dim),
        )
        self.head = nn.Linear(emb_dim, n_classes)
        self.last_embedding = None

    def forward(self, x):
        z = self.encoder(x)
        self.last_embedding = z.detach()
        return self.head(self.last_embedding)


model = FaultNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
sum(p.numel() for p in model.parameters())


# In[5]:


def evaluate(model, X, y):
    model.eval()
    with torch.no_grad():
        pred = model(X).argmax(1)
    model.train()
    return (pred == y).float().mean().item(), pred


history = []
t0 = time.time()
for epoch in range(15):
    perm = torch.randperm(len(X_train))
    running = 0.0
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        out = model(X_train[idx])
        loss = F.cross_entropy(out, y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(idx)
    acc, _ = evaluate(model, X_test, y_test)
    history.append((running / len(X_train), acc))
    print(f"epoch {epoch:2d}  loss {running / len(X_train):.4f}  test acc {acc:.3f}")
print(f"{time.time() - t0:.1f}s")


# ## Results

# In[6]:


acc, pred = evaluate(model, X_test, y_test)
conf = torch.zeros(len(FAULTS), len(FAULTS), dtype=torch.long)
for t, p in zip(y_test, pred):
    conf[t, p] += 1
print(conf)
print(f"test accuracy: {acc:.4f}")


# In[7]:


emb = model.last_embedding.numpy()
emb.shape, emb.mean(0)[:4]
