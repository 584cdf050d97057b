import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from batching import BucketBatchSampler, TicketDataset, pad_collate
from corpus import QUEUES, VOCAB, generate
from model import ConvTextClassifier


def parse_args():
    p = argparse.ArgumentParser(description="train the ticket router")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--per-queue", type=int, default=700)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def accuracy(model, loader):
    model.eval()
    hits = n = 0
    with torch.no_grad():
        for tokens, lengths, labels in loader:
            hits += (model(tokens, lengths).argmax(-1) == labels).sum().item()
            n += labels.numel()
    return hits / n


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    train_texts, train_labels = generate(args.per_queue, seed=args.seed)
    val_texts, val_labels = generate(args.per_queue // 4, seed=10_000 + args.seed)
    train_set = TicketDataset(train_texts, train_labels)
    val_set = TicketDataset(val_texts, val_labels)

    sampler = BucketBatchSampler([len(t) for t in train_texts], args.batch_size, seed=args.seed)
    train_loader = DataLoader(train_set, batch_sampler=sampler, collate_fn=pad_collate,
                              num_workers=args.workers, persistent_workers=args.workers > 0)
    val_loader = DataLoader(val_set, batch_size=128, collate_fn=pad_collate)

    model = ConvTextClassifier(VOCAB, len(QUEUES))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        t0, total, seen = time.time(), 0.0, 0
        for tokens, lengths, labels in train_loader:
            logits = model(tokens, lengths)
            loss = criterion(logits, labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.item() * labels.numel()
            seen += labels.numel()
        print(f"epoch {epoch}: loss={total / seen:.4f} val_acc {accuracy(model, val_loader):.4f} "
              f"({time.time() - t0:.1f}s)")

    print(f"val_acc={accuracy(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
