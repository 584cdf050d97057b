import argparse
import dataclasses
import random
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader

from reviews import VOCAB, ReviewDataset, collate, generate


@dataclass
class TrainConfig:
    epochs: int = 6
    batch_size: int = 32
    lr: float = 2e-3
    emb_dim: int = 32
    hidden: int = 48
    workers: int = 2
    n_train_per_class: int = 1200
    n_test_per_class: int = 400
    seed: int = 0
    data_seed: int = 11


class SentimentLSTM(nn.Module):
    def __init__(self, vocab, emb_dim, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        _, (h_n, _) = self.lstm(packed)
        return self.out(h_n[-1]).squeeze(-1)


def make_loader(ds, batch_size, shuffle=False, workers=0):
    return DataLoader(ds, batch_size=batch_size, shuffle=shuffle, num_workers=workers,
                      collate_fn=collate, persistent_workers=workers > 0)


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, lengths, y in loader:
            pred = (model(x, lengths) > 0).float()
            correct += (pred == y).sum().item()
            total += y.numel()
    return correct / total


def main(cfg: TrainConfig):
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)

    train_items = generate(cfg.n_train_per_class, cfg.data_seed)
    test_items = generate(cfg.n_test_per_class, cfg.data_seed + 1)
    train_loader = make_loader(ReviewDataset(train_items), cfg.batch_size, workers=cfg.workers)
    test_loader = make_loader(ReviewDataset(test_items), 256, workers=cfg.workers)

    model = SentimentLSTM(VOCAB, cfg.emb_dim, cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(cfg.epochs):
        model.train()
        running, n = 0.0, 0
        for x, lengths, y in train_loader:
            opt.zero_grad()
            loss = loss_fn(model(x, lengths), y)
            loss.backward()
            opt.step()
            running += loss.item() * y.numel()
            n += y.numel()
        print(f"epoch {epoch + 1}: train_loss={running / n:.4f} test_acc={evaluate(model, test_loader):.4f}")

    print(f"test_acc={evaluate(model, test_loader):.4f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(TrainConfig):
        ap.add_argument("--" + f.name.replace("_", "-"), type=f.type if f.type in (int, float) else type(f.default),
                        default=f.default)
    main(TrainConfig(**vars(ap.parse_args())))
