import argparse
import json

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import ThermalTiles


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1),
        nn.Flatten(), nn.Linear(32, 1),
    )


def evaluate(model, loader):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for x, y in loader:
            pred = (model(x).squeeze(1) > 0).float()
            correct += (pred == y).sum().item()
            n += len(y)
    return correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="roofcrack.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    norm = cfg["normalize"]
    train_ds = ThermalTiles(cfg["n_train"], cfg["image_size"], cfg["seed"], norm["train"])
    val_ds = ThermalTiles(cfg["n_val"], cfg["image_size"], cfg["seed"] + 1, norm["val"])
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True,
                          num_workers=cfg["num_workers"], persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=200, num_workers=cfg["num_workers"])
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    lossf = nn.BCEWithLogitsLoss()
    for ep in range(cfg["epochs"]):
        model.train()
        for x, y in train_dl:
            loss = lossf(model(x).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = evaluate(model, val_dl)
        print(f"epoch {ep} loss {loss.item():.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
