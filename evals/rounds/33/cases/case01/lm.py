"""Train a GRU next-token model on synthetic tag streams."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from grammar import VOCAB, corpus


class TokenBlocks(Dataset):
    def __init__(self, ids, block):
        self.ids = torch.tensor(ids, dtype=torch.long)
        self.block = block

    def __len__(self):
        return (len(self.ids) - 1) // self.block

    def __getitem__(self, k):
        i = k * self.block
        chunk = self.ids[i:i + self.block + 1]
        return chunk[:-1], chunk[:-1]


class TagLM(nn.Module):
    def __init__(self, vocab, d=48, h=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, h, batch_first=True)
        self.out = nn.Linear(h, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def evaluate(model, dl):
    model.eval()
    hit = tot = 0
    with torch.no_grad():
        for x, y in dl:
            pred = model(x).argmax(-1)
            hit += (pred == y).sum().item()
            tot += y.numel()
    model.train()
    return hit / tot


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--block", type=int, default=48)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.manual_seed(a.seed)

    train_ds = TokenBlocks(corpus(1500, seed=1), a.block)
    val_ds = TokenBlocks(corpus(300, seed=2), a.block)
    train_dl = DataLoader(train_ds, batch_size=a.bs, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=128)

    model = TagLM(len(VOCAB))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr)
    loss_fn = nn.CrossEntropyLoss()
    for ep in range(a.epochs):
        for step, (x, y) in enumerate(train_dl):
            logits = model(x)
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {ep} loss {loss.item():.3f} val_next_acc {evaluate(model, val_dl):.3f}")
    print(f"val_next_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
