import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import corpus, MOVES


def batchify(ids, n_streams):
    data = torch.tensor(ids)
    n = len(data) // n_streams
    return data[:n * n_streams].view(n_streams, n)          # (B, T): one long stream per row


class LaceLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.lstm(self.emb(x), state)
        return self.out(h), state


def run(model, data, bptt, opt=None):
    state, tot, correct, count = None, 0.0, 0, 0
    for i in range(0, data.size(1) - 1, bptt):
        seq = min(bptt, data.size(1) - 1 - i)
        x, y = data[:, i:i + seq], data[:, i + 1:i + 1 + seq]
        if state is not None:
            # keep the memory, drop the graph of the previous chunk
            state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        tot += loss.item() * y.numel()
        correct += (logits.argmax(-1) == y).sum().item()
        count += y.numel()
    return tot / count, correct / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--streams", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = batchify(corpus(1500, seed=args.seed), args.streams)
    val = batchify(corpus(200, seed=args.seed + 1000), args.streams)
    model = LaceLM(len(MOVES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        tr_loss, tr_acc = run(model, train, args.bptt, opt)
        model.eval()
        with torch.no_grad():
            va_loss, va_acc = run(model, val, args.bptt)
        print(f"epoch {epoch + 1} train_loss={tr_loss:.4f} val_loss={va_loss:.4f} val_acc={va_acc:.3f}")
    print(f"val_ppl={math.exp(va_loss):.3f}")
    print(f"val_acc={va_acc:.4f}")


if __name__ == "__main__":
    main()
