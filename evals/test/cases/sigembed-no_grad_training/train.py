import argparse

import torch
import torch.nn.functional as F

from model import SignalClassifier
from utils import CLASS_NAMES, export_embeddings, load_split, seed_everything


def evaluate(model, signals, labels):
    model.eval()
    with torch.no_grad():
        logits = model(signals)
    return F.cross_entropy(logits, labels).item(), (logits.argmax(1) == labels).float().mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--data", default="data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save-embeddings", action="store_true")
    args = parser.parse_args()

    seed_everything(args.seed)
    x_train, y_train = load_split(args.data, "train", n_per_class=300, seed=1)
    x_val, y_val = load_split(args.data, "val", n_per_class=100, seed=2)

    model = SignalClassifier(len(CLASS_NAMES))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(x_train))
        epoch_loss = 0.0
        for start in range(0, len(perm), args.batch_size):
            idx = perm[start:start + args.batch_size]
            logits = model(x_train[idx])
            loss = F.cross_entropy(logits, y_train[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * len(idx)
        val_loss, val_acc = evaluate(model, x_val, y_val)
        print(f"[{epoch:02d}] train_loss={epoch_loss / len(x_train):.4f} val_loss={val_loss:.4f} val_acc={val_acc:.3f}")

    if args.save_embeddings:
        torch.save({"embeddings": export_embeddings(model, x_val), "labels": y_val}, "val_embeddings.pt")


if __name__ == "__main__":
    main()
