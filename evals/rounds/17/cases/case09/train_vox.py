import argparse
import json

import torch
import torch.nn.functional as F
from torch import nn

from phantoms import GRADES, make_set


class VoxNet(nn.Module):
    def __init__(self, channels, n_classes):
        super().__init__()
        layers, c_in = [], 1
        for c in channels:
            layers += [nn.Conv3d(c_in, c, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2)]
            c_in = c
        self.features = nn.Sequential(*layers)
        self.n_classes = n_classes
        self.classifier = None
        self._flat = None

    def _build_classifier(self, n_flat):
        # the crop size is only known once data arrives
        self.classifier = nn.Linear(n_flat, self.n_classes)
        self.n_flat = n_flat

    def forward(self, x):
        h = self.features(x).flatten(1)
        if self.classifier is None or self._flat != h.shape[1]:
            self._build_classifier(h.shape[1])
        return self.classifier(h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="vox.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    X, y = make_set(cfg["n_volumes"], cfg["size"], seed)
    X, y = torch.from_numpy(X), torch.from_numpy(y).long()
    nv = int(len(X) * cfg["val_fraction"])
    Xtr, ytr, Xva, yva = X[nv:], y[nv:], X[:nv], y[:nv]

    model = VoxNet(cfg["channels"], len(GRADES))
    model(Xtr[:2])                     # materialize the classifier before building the optimizer
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    def accuracy(X_, y_):
        model.eval()
        with torch.no_grad():
            return (model(X_).argmax(1) == y_).float().mean().item()

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            opt.zero_grad()
            loss = F.cross_entropy(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss={total / len(Xtr):.4f} val_acc={accuracy(Xva, yva):.4f}")
    print(f"val_acc={accuracy(Xva, yva):.4f}")


if __name__ == "__main__":
    main()
