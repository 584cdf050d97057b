import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from corpus import VOCAB, token_stream


class StreamWindows(Dataset):
    """Fixed-length windows over one long token stream."""

    def __init__(self, ids, block):
        data = torch.tensor(ids, dtype=torch.long)
        self.block = block
        self.inputs = data[:-1]
        self.targets = data[1:]          # targets are the stream shifted by one

    def __len__(self):
        return (len(self.inputs) - self.block - 1) // self.block

    def __getitem__(self, i):
        s = i * self.block
        x = self.inputs[s:s + self.block]
        y = self.targets[s + 1:s + 1 + self.block]
        return x, y


class TokenLSTM(nn.Module):
    def __init__(self, vocab, dim=64, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, hidden, num_layers=2, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    hit = n = 0
    nll = 0.0
    for x, y in loader:
        logits = model(x)
        nll += F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), reduction="sum").item()
        hit += (logits.argmax(-1) == y).sum().item()
        n += y.numel()
    model.train()
    return hit / n, nll / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--block", type=int, default=48)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_ds = StreamWindows(token_stream(1500, seed=1), args.block)
    val_ds = StreamWindows(token_stream(200, seed=2), args.block)
    print(f"vocab {len(VOCAB)}, {len(train_ds)} train windows, {len(val_ds)} val windows")
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=128)

    model = TokenLSTM(len(VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    step = 0
    while step < args.steps:
        for x, y in train_dl:
            logits = model(x)
            loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            if step % 100 == 0:
                acc, vnll = evaluate(model, val_dl)
                print(f"step {step:4d} loss {loss.item():.3f} val_ppl {math.exp(vnll):.2f} val_acc {acc:.3f}")
            if step >= args.steps:
                break

    acc, vnll = evaluate(model, val_dl)
    print(f"val_token_acc={acc:.4f}")
    print(f"val_ppl={math.exp(vnll):.3f}")


if __name__ == "__main__":
    main()
