import argparse
import os

import torch
import torch.nn as nn
from dataset import train_val_split
from model import GlyphNet
from prepare_data import prepare
from torch.utils.data import DataLoader


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for images, labels in loader:
            preds = model(images).argmax(dim=1)
            correct += (preds == labels).sum().item()
            total += labels.numel()
    return correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="data")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    if not os.path.isdir(os.path.join(args.data, "images")):
        prepare(args.data)

    train_set, val_set = train_val_split(args.data, seed=args.seed)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=256)

    model = GlyphNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(1, args.epochs + 1):
        model.train()
        running = 0.0
        for images, labels in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
            running += loss.item() * labels.numel()
        val_acc = evaluate(model, val_loader)
        print(
            f"epoch {epoch:2d} | train_loss {running / len(train_set):.4f} | val_acc {val_acc:.3f}"
        )

    torch.save(model.state_dict(), "glyphnet.pt")


if __name__ == "__main__":
    main()
