import argparse
import json

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from gestures import GESTURES, GestureDataset
from model import GestureGRU


def run_epoch(model, loader, criterion, optimizer=None):
    training = optimizer is not None
    model.train(training)
    loss_sum, correct, seen = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for seqs, gesture in loader:
            logits = model(seqs)
            loss = criterion(logits, gesture)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            loss_sum += loss.item() * len(gesture)
            correct += (logits.argmax(1) == gesture).sum().item()
            seen += len(gesture)
    return loss_sum / seen, correct / seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/default.json")
    args = parser.parse_args()
    with open(args.config) as fh:
        cfg = json.load(fh)

    torch.manual_seed(cfg["seed"])
    train_set = GestureDataset(cfg["data_dir"], "train", cfg["n_train"], cfg["seq_len"], seed=cfg["seed"] + 1)
    val_set = GestureDataset(cfg["data_dir"], "val", cfg["n_val"], cfg["seq_len"], seed=cfg["seed"] + 2)
    train_loader = DataLoader(train_set, batch_size=cfg["batch_size"], shuffle=True, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=cfg["batch_size"], drop_last=True)

    model = GestureGRU(3, cfg["seq_len"], cfg["hidden"], len(GESTURES))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    criterion = nn.CrossEntropyLoss()

    for epoch in range(1, cfg["epochs"] + 1):
        tr_loss, tr_acc = run_epoch(model, train_loader, criterion, optimizer)
        va_loss, va_acc = run_epoch(model, val_loader, criterion)
        print(f"Epoch {epoch}: train loss {tr_loss:.3f} acc {tr_acc:.3f} | val loss {va_loss:.3f} acc {va_acc:.3f}")


if __name__ == "__main__":
    main()
