"""LSTM LM on CSS selector tokens, truncated BPTT over one long stream."""
import argparse
import math

import torch
from torch import nn

from grammar import corpus


class Vocab:
    def __init__(self, tokens):
        self.itos = sorted(set(tokens))
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def encode(self, tokens):
        return torch.tensor([self.stoi[t] for t in tokens], dtype=torch.long)


def batchify(ids, batch_size):
    n = ids.size(0) // batch_size
    return ids[: n * batch_size].view(batch_size, n).t().contiguous()      # (T, B)


class SelectorLM(nn.Module):
    def __init__(self, vocab_size, emb=48, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.rnn = nn.LSTM(emb, hidden)
        self.proj = nn.Linear(hidden, vocab_size)

    def forward(self, x, state=None):
        out, state = self.rnn(self.emb(x), state)
        return torch.log_softmax(self.proj(out), dim=-1), state


def run_epoch(model, data, bptt, optimizer=None, clip=10.0):
    train = optimizer is not None
    model.train(train)
    nll = nn.NLLLoss(reduction="sum")
    state, total, count, correct = None, 0.0, 0, 0
    with torch.set_grad_enabled(train):
        for i in range(0, data.size(0) - 1, bptt):
            x = data[i:i + bptt]
            y = data[i + 1:i + 1 + len(x)]
            x = x[: len(y)]
            if state is not None:
                # keep the state across segments but stop gradients at the boundary
                state = tuple(s.detach() for s in state)
            logp, state = model(x, state)
            loss = nll(logp.reshape(-1, logp.size(-1)), y.reshape(-1))
            if train:
                optimizer.zero_grad()
                (loss / y.numel()).backward()
                grad_norm = nn.utils.clip_grad_norm_(model.parameters(), clip)
                optimizer.step()
            total += loss.item()
            count += y.numel()
            correct += (logp.argmax(-1) == y).sum().item()
    return total / count, correct / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--bptt", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_toks, val_toks = corpus(3000, seed=1), corpus(500, seed=2)
    vocab = Vocab(train_toks + val_toks)
    train = batchify(vocab.encode(train_toks), args.batch_size)
    val = batchify(vocab.encode(val_toks), 8)
    print(f"vocab {len(vocab.itos)}  train tokens {train.numel()}  val tokens {val.numel()}")
    unigram = torch.bincount(train.flatten(), minlength=len(vocab.itos)).float()
    unigram_ppl = math.exp(-(unigram / unigram.sum() * torch.log(unigram / unigram.sum() + 1e-12)).sum().item())
    print(f"unigram ppl {unigram_ppl:.2f}")

    model = SelectorLM(len(vocab.itos))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        tr_nll, _ = run_epoch(model, train, args.bptt, opt)
        va_nll, va_acc = run_epoch(model, val, args.bptt)
        print(f"epoch {epoch + 1}  train_ppl {math.exp(tr_nll):.3f}  val_ppl {math.exp(va_nll):.3f}  val_acc {va_acc:.3f}")
    print(f"val_ppl={math.exp(va_nll):.4f}")


if __name__ == "__main__":
    main()
