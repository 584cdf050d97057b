import argparse
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from features import Standardizer, membrane_traces, scale_for_inference, summary_features

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=60)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

xtr, ytr = membrane_traces(2000, rng)
xva, yva = membrane_traces(500, rng)
ftr, fva = summary_features(xtr), summary_features(xva)
scaler = Standardizer().fit(ftr)
ftr = torch.from_numpy(scaler.transform(ftr))
fva = torch.from_numpy(scale_for_inference(fva, scaler))
ytr, yva = torch.from_numpy(ytr), torch.from_numpy(yva)

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for ep in range(args.epochs):
    perm = torch.randperm(len(ftr))
    for i in range(0, len(ftr), 128):
        b = perm[i:i + 128]
        loss = F.cross_entropy(model(ftr[b]), ytr[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    acc = (model(fva).argmax(1) == yva).float().mean().item()
print(f"val_acc={acc:.4f}")
