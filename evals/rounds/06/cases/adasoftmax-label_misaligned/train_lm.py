import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from corpus import build, LMWindows


class WordLM(nn.Module):
    def __init__(self, vocab_size, emb=64, hidden=128, cutoffs=(50, 200)):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.crit = nn.AdaptiveLogSoftmaxWithLoss(hidden, vocab_size, cutoffs=list(cutoffs), div_value=2.0)

    def hidden_states(self, x):
        h, _ = self.rnn(self.emb(x))
        return h

    def forward(self, x, y):
        h = self.hidden_states(x)
        # the adaptive softmax wants flat (N, H) / (N,)
        return self.crit(h.reshape(-1, h.size(-1)), y.reshape(-1))


def align(h, y):
    # last position has no next token inside the window
    return h[:, :-1], y[:, 1:]


def run(args):
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    train, val = build(seed=args.data_seed)
    tr = DataLoader(LMWindows(train, args.bptt), batch_size=args.batch_size, shuffle=True)
    va = DataLoader(LMWindows(val, args.bptt), batch_size=128)
    model = WordLM(args.vocab)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        t0, tot, cnt = time.time(), 0.0, 0
        for x, y in tr:
            h = model.hidden_states(x)
            h, y = align(h, y)
            out = model.crit(h.reshape(-1, h.size(-1)), y.reshape(-1))
            opt.zero_grad()
            out.loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            tot += out.loss.item()
            cnt += 1
        print(f"epoch {epoch + 1} train_loss={tot / cnt:.4f} ({time.time() - t0:.1f}s)")

    model.eval()
    nll, n = 0.0, 0
    with torch.no_grad():
        for x, y in va:
            out = model(x, y)
            nll += out.loss.item() * y.numel()
            n += y.numel()
    ppl = math.exp(nll / n)
    print(f"val_nll={nll / n:.4f}")
    print(f"val_ppl={ppl:.3f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bptt", type=int, default=32)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--vocab", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data-seed", type=int, default=1234)
    run(p.parse_args())
