import argparse

import torch
import torch.nn as nn

from folds import folding_stream, TOKENS


class FoldLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, state=None):
        h, state = self.lstm(self.emb(tokens), state)
        return self.out(h), state


def batchify(stream, n_rows):
    """Split one long stream into n_rows parallel streams: (n_rows, L)."""
    usable = (len(stream) // n_rows) * n_rows
    return torch.from_numpy(stream[:usable]).view(n_rows, -1)


def run_epoch(model, data, bptt, opt=None, clip=5.0):
    training = opt is not None
    model.train(training)
    state = None
    loss_fn = nn.CrossEntropyLoss()
    total, hits, count = 0.0, 0, 0
    for start in range(0, data.size(1) - 1, bptt):
        end = min(start + bptt, data.size(1) - 1)
        inp = data[:, start:end]
        tgt = data[:, start + 1:end + 1]
        if state is not None:
            # keep the running state but stop gradients at the chunk boundary
            state = tuple(s.detach() for s in state)
        with torch.set_grad_enabled(training):
            logits, state = model(inp, state)
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))
        if training:
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
        total += loss.item() * tgt.numel()
        hits += (logits.argmax(-1) == tgt).sum().item()
        count += tgt.numel()
    return total / count, hits / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = batchify(folding_stream(60000, seed=args.seed), args.rows)
    val = batchify(folding_stream(8000, seed=args.seed + 1), args.rows)
    model = FoldLM(len(TOKENS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        tr_loss, tr_acc = run_epoch(model, train, args.bptt, opt)
        va_loss, va_acc = run_epoch(model, val, args.bptt)
        print(f"epoch {epoch} train_loss {tr_loss:.3f} val_loss {va_loss:.3f} val_acc {va_acc:.3f}")
    print(f"val_next_fold_acc={va_acc:.4f}")


if __name__ == "__main__":
    main()
