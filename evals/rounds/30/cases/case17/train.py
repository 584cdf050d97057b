import argparse
import json

import numpy as np
import torch

from common import ForceMLP, throws

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=60)
args = ap.parse_args()
torch.manual_seed(args.seed)
x, y = throws(3000, args.seed)
stats = {"x_mu": x.mean(0).tolist(), "x_sd": x.std(0).tolist(), "y_mu": float(y.mean()), "y_sd": float(y.std())}
xs = torch.from_numpy((x - x.mean(0)) / x.std(0))
ys = torch.from_numpy((y - y.mean()) / y.std())
model = ForceMLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for ep in range(args.epochs):
    model.train()
    perm = torch.randperm(len(xs))
    for i in range(0, len(xs), 64):
        b = perm[i:i + 64]
        loss = torch.nn.functional.mse_loss(model(xs[b]), ys[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if ep % 20 == 0:
        print(f"epoch {ep} mse {loss.item():.4f}")
torch.save(model.state_dict(), "model.pt")
json.dump(stats, open("scaler.json", "w"))
print("saved model.pt")
