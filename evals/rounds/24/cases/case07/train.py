import argparse
import json

import torch
import torch.nn as nn

from features import featurize, N_BUCKETS
from model import CuisineClassifier


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", default="cards.json")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    data = json.load(open(args.cards))
    classes = data["cuisines"]
    X = featurize([c["text"] for c in data["cards"]])
    y = torch.tensor([classes.index(c["cuisine"]) for c in data["cards"]])
    n_val = len(y) // 5
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]

    model = CuisineClassifier(N_BUCKETS, len(classes))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = criterion(model(Xtr[b]), ytr[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch + 1} loss={tot / len(perm):.4f} val_acc={acc:.3f}")

    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
