import argparse
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from bars import BarsDataset, draw_bars


class TinyCNN(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8x8 -> 4x4
        )
        self.classifier = nn.Linear(8 * 4 * 4, n_classes)

    def forward(self, x):
        x = self.features(x)
        return self.classifier(x.flatten(1))  # [B, n_classes] logits


def accuracy(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for imgs, labels in loader:
            preds = model(imgs).argmax(dim=1)
            correct += (preds == labels).sum().item()
            total += labels.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    opts = ap.parse_args()

    random.seed(1)
    np.random.seed(1)
    torch.manual_seed(1)

    train_imgs, train_labels = draw_bars(1024, seed=11)
    test_imgs, test_labels = draw_bars(256, seed=12)
    # normalization statistics come from the training images only
    mu, sigma = float(train_imgs.mean()), float(train_imgs.std())
    train_ds = BarsDataset(train_imgs, train_labels, mu, sigma)
    test_ds = BarsDataset(test_imgs, test_labels, mu, sigma)

    train_dl = DataLoader(train_ds, batch_size=opts.bs, shuffle=True)
    test_dl = DataLoader(test_ds, batch_size=128)

    net = TinyCNN()
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(net.parameters(), lr=opts.lr)

    for ep in range(opts.epochs):
        net.train()
        total_loss = 0.0
        for imgs, labels in train_dl:
            opt.zero_grad(set_to_none=True)
            out = net(imgs)
            loss = loss_fn(out, labels)
            loss.backward()
            total_loss += loss.item()
        opt.step()
        print(f"[{ep + 1}/{opts.epochs}] loss={total_loss / len(train_dl):.4f}")

    test_acc = accuracy(net, test_dl)
    print(f"test accuracy: {test_acc:.2%}")
    print(f"METRIC val_acc={test_acc:.4f}")


if __name__ == "__main__":
    main()
