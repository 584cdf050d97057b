import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from gestures import CLASSES, GestureDataset, pad_collate
from gestures.model import GestureGRU


def run(model, loader, criterion, optimizer=None):
    is_train = optimizer is not None
    model.train() if is_train else model.eval()
    loss_total, correct, count = 0.0, 0, 0
    ctx = torch.enable_grad() if is_train else torch.no_grad()
    with ctx:
        for padded, lengths, labels in loader:
            logits = model(padded, lengths)
            loss = criterion(logits, labels)
            if is_train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            loss_total += loss.item() * len(labels)
            correct += (logits.argmax(dim=1) == labels).sum().item()
            count += len(labels)
    return loss_total / count, correct / count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="data")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    full_train = GestureDataset(args.root, train=True)
    test_set = GestureDataset(args.root, train=False)
    n_val = len(full_train) // 10
    train_set, val_set = random_split(full_train, [len(full_train) - n_val, n_val],
                                      generator=torch.Generator().manual_seed(args.seed))

    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, collate_fn=pad_collate,
                              generator=torch.Generator().manual_seed(args.seed))
    val_loader = DataLoader(val_set, batch_size=128, shuffle=False, collate_fn=pad_collate)
    test_loader = DataLoader(test_set, batch_size=128, shuffle=False, collate_fn=pad_collate)

    model = GestureGRU(n_classes=len(CLASSES))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        tr_loss, tr_acc = run(model, train_loader, criterion, optimizer)
        va_loss, va_acc = run(model, val_loader, criterion)
        print(f"epoch {epoch:2d}: train loss {tr_loss:.3f} acc {tr_acc:.3f} | "
              f"val loss {va_loss:.3f} acc {va_acc:.3f} | {time.time() - t0:.1f}s")

    te_loss, te_acc = run(model, test_loader, criterion)
    print(f"test: loss {te_loss:.3f} acc {te_acc:.3f}")


if __name__ == "__main__":
    main()
