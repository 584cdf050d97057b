import argparse

import torch
from torch import nn
import torch.nn.functional as F

from diagrams import TOKENS, session


def batchify(stream, n_streams):
    """Cut one long token stream into n parallel streams: (T, n_streams)."""
    data = torch.tensor(stream, dtype=torch.long)
    T = len(data) // n_streams
    return data[: T * n_streams].view(n_streams, T).t().contiguous()


class FoldLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.lstm(self.emb(x), state)
        return F.log_softmax(self.out(h), dim=-1), state


def evaluate(model, data, bptt):
    model.eval()
    correct = total = 0
    state = None
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, bptt):
            x, y = data[i:i + bptt], data[i + 1:i + 1 + bptt]
            x = x[: len(y)]
            logp, state = model(x, state)
            correct += (logp.argmax(-1) == y).sum().item()
            total += y.numel()
    model.train()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--streams", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = batchify(session(1500, seed=args.seed), args.streams)
    val = batchify(session(200, seed=args.seed + 99), 4)
    model = FoldLM(len(TOKENS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.NLLLoss()

    for epoch in range(args.epochs):
        state = None
        max_norm_seen = 0.0
        for i in range(0, train.size(0) - 1, args.bptt):
            x, y = train[i:i + args.bptt], train[i + 1:i + 1 + args.bptt]
            x = x[: len(y)]
            if state is not None:
                state = tuple(s.detach() for s in state)      # truncated BPTT: keep the values, drop the history
            logp, state = model(x, state)
            loss = crit(logp.reshape(-1, logp.size(-1)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            max_norm_seen = max(max_norm_seen, norm.item())
            opt.step()
        print(f"epoch {epoch + 1} loss={loss.item():.4f} max_grad_norm={max_norm_seen:.2f} "
              f"val_next_fold_acc={evaluate(model, val, args.bptt):.4f}")
    print(f"val_next_fold_acc={evaluate(model, val, args.bptt):.4f}")


if __name__ == "__main__":
    main()
