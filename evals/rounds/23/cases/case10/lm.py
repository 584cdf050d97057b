import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import corpus


def batchify(ids, batch_size):
    data = torch.tensor(ids, dtype=torch.long)
    n = data.numel() // batch_size
    return data[: n * batch_size].view(batch_size, n)  # (B, T): one contiguous stream per row


class TokenLSTM(nn.Module):
    def __init__(self, vocab_size, emb=48, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab_size)

    def forward(self, x, state=None):
        out, state = self.rnn(self.emb(x), state)
        return F.log_softmax(self.proj(out), dim=-1), state


def run_epoch(model, data, bptt, opt=None, clip=25.0):
    training = opt is not None
    model.train(training)
    nll = nn.NLLLoss()
    state, total, correct, count = None, 0.0, 0, 0
    for i in range(0, data.size(1) - 1, bptt):
        seq = min(bptt, data.size(1) - 1 - i)
        x, y = data[:, i:i + seq], data[:, i + 1:i + 1 + seq]
        if state is not None:
            # truncated BPTT: carry the state across chunks, not the graph
            state = tuple(s.detach() for s in state)
        with torch.set_grad_enabled(training):
            logp, state = model(x, state)
            loss = nll(logp.reshape(-1, logp.size(-1)), y.reshape(-1))
        if training:
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
        total += loss.item() * y.numel()
        correct += (logp.argmax(-1) == y).sum().item()
        count += y.numel()
    return total / count, correct / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--bptt", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    train_ids, v = corpus(1500, seed=1)
    val_ids, _ = corpus(200, seed=2)
    train, val = batchify(train_ids, args.batch_size), batchify(val_ids, args.batch_size)
    model = TokenLSTM(len(v))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        tl, ta = run_epoch(model, train, args.bptt, opt)
        vl, va = run_epoch(model, val, args.bptt)
        print(f"epoch {epoch + 1} train_nll={tl:.3f} val_nll={vl:.3f} val_acc={va:.3f}")
    print(f"val_acc={va:.4f}")


if __name__ == "__main__":
    main()
