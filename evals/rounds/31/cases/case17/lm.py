import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

COLOURS = ["red", "teal", "ochre", "lime", "navy"]
VOCAB = ["<pad>", "<bos>", "<eos>"] + list("0123456789,abcdefghijklmnopqrstuvwxyzYN")
STOI = {c: i for i, c in enumerate(VOCAB)}
PAD = STOI["<pad>"]
MAXLEN = 24


def make_row(rnd):
    rid = rnd.randint(1, 999)
    col = rnd.choice(COLOURS)
    qty = rnd.randint(0, 50)
    flag = "Y" if qty > 25 else "N"
    return f"{rid},{col},{qty},{flag}"


def encode(row):
    ids = [STOI["<bos>"]] + [STOI[c] for c in row] + [STOI["<eos>"]]
    return ids + [PAD] * (MAXLEN + 1 - len(ids))


def batch(rnd, n):
    return torch.tensor([encode(make_row(rnd)) for _ in range(n)])


class RowLM(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(len(VOCAB), d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, len(VOCAB))

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def pad_mask(tokens):
    """True where the position holds padding."""
    return tokens == PAD


def masked_ce(logits, targets):
    keep = pad_mask(targets)
    return F.cross_entropy(logits[keep], targets[keep])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    torch.manual_seed(args.seed)
    model = RowLM()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    val = batch(random.Random(1234), 500)
    for step in range(args.steps):
        seq = batch(rnd, 64)
        inp, tgt = seq[:, :-1], seq[:, 1:]
        loss = masked_ce(model(inp), tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 99:
            print(f"step {step+1} loss {loss.item():.4f}")
    with torch.no_grad():
        inp, tgt = val[:, :-1], val[:, 1:]
        pred = model(inp).argmax(-1)
        real = tgt != PAD
        acc = (pred[real] == tgt[real]).float().mean().item()
    print(f"val_token_acc={acc:.4f}")


if __name__ == "__main__":
    main()
