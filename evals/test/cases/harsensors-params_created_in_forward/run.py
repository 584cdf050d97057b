import argparse

import torch
from torch.utils.data import DataLoader

from sensors.data import ACTIVITIES, load_windows
from sensors.engine import evaluate, train_epoch
from sensors.nets import ActivityMLP


def parse_args():
    p = argparse.ArgumentParser(description="Train the activity classifier on windowed sensor features.")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--seed", type=int, default=42)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    train_set, test_set = load_windows()
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=512)

    model = ActivityMLP(len(ACTIVITIES), hidden=args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        loss = train_epoch(model, train_loader, optimizer)
        acc, recall = evaluate(model, test_loader, len(ACTIVITIES))
        print(f"epoch {epoch + 1}/{args.epochs} - loss: {loss:.4f} - test_acc: {acc:.4f}")
    print("per-class recall: " + ", ".join(f"{a}={r:.2f}" for a, r in zip(ACTIVITIES, recall.tolist())))


if __name__ == "__main__":
    main()
