import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from features import FeatureStats, SpectrogramSet, log_compress
from model import SpecCNN
from synth import VOWELS, make_corpus


def split_indices(n, val_fraction, seed):
    perm = np.random.default_rng(seed + 1).permutation(n)
    n_val = int(n * val_fraction)
    return perm[n_val:], perm[:n_val]


def build_loaders(cfg):
    power, labels = make_corpus(cfg["n_per_class"], cfg["n_freq"], cfg["n_frames"], cfg["seed"])
    tr, va = split_indices(len(labels), cfg["val_fraction"], cfg["seed"])
    stats = FeatureStats.fit(log_compress(torch.as_tensor(power[tr])))
    train_set = SpectrogramSet(power[tr], labels[tr], stats=stats, specaug=cfg["specaug"], seed=cfg["seed"])
    val_set = SpectrogramSet(power[va], labels[va])
    train_loader = DataLoader(train_set, batch_size=cfg["batch_size"], shuffle=True,
                              generator=torch.Generator().manual_seed(cfg["seed"]))
    val_loader = DataLoader(val_set, batch_size=256)
    return train_loader, val_loader


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        total += len(y)
    model.train()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as fh:
        cfg = json.load(fh)
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    train_loader, val_loader = build_loaders(cfg)
    model = SpecCNN(n_classes=len(VOWELS))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        running = 0.0
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(y)
        val_acc = evaluate(model, val_loader)
        print(f"epoch {epoch + 1:2d}  train_loss {running / len(train_loader.dataset):.4f}  val_acc {val_acc:.3f}")

    print(f"val_acc={evaluate(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
