import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import build_vocab, corpus


class IniLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return F.log_softmax(self.out(h), dim=-1), state


def batchify(ids, n_streams):
    n = len(ids) // n_streams
    return ids[: n * n_streams].view(n_streams, n)       # [streams, time]


def evaluate(model, data, bptt):
    model.eval()
    correct = total = 0
    state = None
    with torch.no_grad():
        for i in range(0, data.shape[1] - 1, bptt):
            x = data[:, i:i + bptt]
            y = data[:, i + 1:i + 1 + bptt]
            x = x[:, : y.shape[1]]
            logp, state = model(x, state)
            correct += (logp.argmax(-1) == y).sum().item()
            total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--streams", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_tok, val_tok = corpus(2000, seed=1), corpus(300, seed=2)
    stoi, itos = build_vocab(train_tok + val_tok)
    train = batchify(torch.tensor([stoi[t] for t in train_tok]), args.streams)
    val = batchify(torch.tensor([stoi[t] for t in val_tok]), 8)
    print(f"vocab {len(itos)}  train tokens {train.numel()}")

    model = IniLM(len(itos))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        state = None
        for step, i in enumerate(range(0, train.shape[1] - 1, args.bptt)):
            x = train[:, i:i + args.bptt]
            y = train[:, i + 1:i + 1 + args.bptt]
            x = x[:, : y.shape[1]]
            if state is not None:
                # keep the memory across windows, not the graph
                state = tuple(s.detach() for s in state)
            logp, state = model(x, state)
            loss = nll(logp.reshape(-1, logp.shape[-1]), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            if step % 50 == 0:
                print(f"epoch {epoch} step {step:4d} loss {loss.item():.3f} grad_norm {gnorm.item():.2f}")
        print(f"epoch {epoch} val_token_acc {evaluate(model, val, args.bptt):.4f}")
    print(f"val_token_acc={evaluate(model, val, args.bptt):.4f}")


if __name__ == "__main__":
    main()
