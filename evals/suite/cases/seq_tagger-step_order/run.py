import argparse
import random
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from tagging import IGNORE, NUM_TAGS, GRUTagger, TaggingData, collate


def token_accuracy(logits, tags, mask):
    pred = logits.argmax(-1)
    correct = ((pred == tags) & mask).sum().item()
    return correct, mask.sum().item()


def run_eval(model, loader):
    model.eval()
    hits = total = 0
    with torch.no_grad():
        for tokens, tags, mask, _ in loader:
            c, n = token_accuracy(model(tokens), tags, mask)
            hits += c
            total += n
    return hits / total


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch_size", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--seed", type=int, default=42)
    cfg = p.parse_args()

    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)

    train_set = TaggingData(1600, seed=cfg.seed)
    dev_set = TaggingData(300, seed=cfg.seed + 1)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    dev_loader = DataLoader(dev_set, batch_size=100, collate_fn=collate)

    model = GRUTagger()
    criterion = nn.CrossEntropyLoss(ignore_index=IGNORE)
    optim = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    t0 = time.time()
    for epoch in range(cfg.epochs):
        model.train()
        epoch_loss = 0.0
        for tokens, tags, mask, lengths in train_loader:
            logits = model(tokens)
            loss = criterion(logits.reshape(-1, NUM_TAGS), tags.reshape(-1))
            loss.backward()
            optim.zero_grad()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            optim.step()
            epoch_loss += loss.item()
        dev_acc = run_eval(model, dev_loader)
        print("epoch %d | loss %.4f | dev token acc %.4f | %.1fs" % (
            epoch + 1, epoch_loss / len(train_loader), dev_acc, time.time() - t0))

    print("METRIC val_token_acc=%.4f" % run_eval(model, dev_loader))
