"""Truncated-BPTT LSTM over weaving logs."""
import argparse
import random

import torch
import torch.nn as nn

VOCAB = ["O", "U", "T", "K", "|", "."]
STOI = {c: i for i, c in enumerate(VOCAB)}
MOTIFS = ["OU", "OOUU", "OUT", "OOUUT", "OUK", "TOU", "OOU"]


def weaving_log(n_baskets, rnd):
    out = []
    for _ in range(n_baskets):
        motif = rnd.choice(MOTIFS)
        stakes = rnd.choice([8, 12, 16])
        for _ in range(rnd.randint(3, 6)):           # rounds
            row = (motif * stakes)[:stakes]
            row = "".join(c if rnd.random() > 0.03 else rnd.choice("OUTK") for c in row)
            out.append(row + "|")
        out.append(".")
    return "".join(out)


def batchify(text, batch_size):
    ids = torch.tensor([STOI[c] for c in text])
    n = len(ids) // batch_size
    return ids[:n * batch_size].view(batch_size, n)   # each row is a contiguous stream


class ReedLSTM(nn.Module):
    def __init__(self, emb=16, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(len(VOCAB), emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, len(VOCAB))

    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return torch.log_softmax(self.out(h), dim=-1), state


def evaluate(model, data, bptt):
    model.eval()
    state, hits, total = None, 0, 0
    with torch.no_grad():
        for i in range(0, data.size(1) - 1, bptt):
            x = data[:, i:i + bptt]
            y = data[:, i + 1:i + 1 + bptt]
            x = x[:, :y.size(1)]
            logp, state = model(x, state)
            hits += (logp.argmax(-1) == y).sum().item()
            total += y.numel()
    return hits / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bptt", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    torch.manual_seed(args.seed)

    train = batchify(weaving_log(700, rnd), args.batch_size)
    val = batchify(weaving_log(150, rnd), args.batch_size)

    model = ReedLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        state, running, n, max_norm = None, 0.0, 0, 0.0
        for i in range(0, train.size(1) - 1, args.bptt):
            x = train[:, i:i + args.bptt]
            y = train[:, i + 1:i + 1 + args.bptt]
            x = x[:, :y.size(1)]
            if state is not None:
                # keep the carried state, drop its history (truncated BPTT)
                state = tuple(s.detach() for s in state)
            logp, state = model(x, state)
            loss = nll(logp.reshape(-1, len(VOCAB)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            max_norm = max(max_norm, float(norm))
            opt.step()
            running += loss.item()
            n += 1
        acc = evaluate(model, val, args.bptt)
        print(f"epoch {epoch + 1} nll={running / n:.4f} max_grad_norm={max_norm:.2f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
