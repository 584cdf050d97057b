import os

import numpy as np
import torch

from .common import ART, args, world
from .model import RouteTimeModel
from .scaling import FeatureScaler


def main():
    a = args()
    torch.manual_seed(a.seed)
    feats, (idx, mask), t, _, _ = world(a.seed)
    scaler = FeatureScaler().fit(feats)
    x = torch.tensor(scaler.transform(feats))
    idx, mask, t = torch.tensor(idx), torch.tensor(mask), torch.tensor(t)

    model = RouteTimeModel(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    for epoch in range(a.epochs):
        perm = torch.randperm(len(t))
        tot = 0.0
        for s in range(0, len(perm), 128):
            j = perm[s:s + 128]
            pred = model(x, idx[j], mask[j])
            loss = ((pred - t[j]) / t[j]).abs().mean()      # relative error
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1:3d} train_mape {tot / len(t):.4f}")
    os.makedirs(ART, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(ART, "model.pt"))
    scaler.to_json(os.path.join(ART, "scaler.json"))
    print(f"saved model and scaler to {ART}/")


if __name__ == "__main__":
    main()
