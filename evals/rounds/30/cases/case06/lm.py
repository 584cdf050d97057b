import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SECTIONS = ["[server]", "[database]", "[cache]", "[log]"]
KEYS = {"[server]": ["host", "port", "workers"], "[database]": ["url", "pool", "timeout"],
        "[cache]": ["ttl", "size"], "[log]": ["level", "file"]}
VALUES = {"host": ["localhost", "0.0.0.0"], "port": ["8080", "443"], "workers": ["4", "8"],
          "url": ["sqlite", "pg"], "pool": ["5", "10"], "timeout": ["30", "60"], "ttl": ["300", "60"],
          "size": ["128", "512"], "level": ["INFO", "DEBUG"], "file": ["app.log", "err.log"]}
VOCAB = ["<nl>", "="] + SECTIONS + sorted(KEYS_ALL := {k for ks in KEYS.values() for k in ks}) + \
    sorted({v for vs in VALUES.values() for v in vs})
IDX = {t: i for i, t in enumerate(VOCAB)}


def ini_stream(n_files, rng):
    toks = []
    for _ in range(n_files):
        for sec in rng.permutation(SECTIONS):
            toks += [sec, "<nl>"]
            for k in KEYS[sec]:
                toks += [k, "=", rng.choice(VALUES[k]), "<nl>"]
    return torch.tensor([IDX[t] for t in toks])


class TokenLSTM(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.emb = nn.Embedding(len(VOCAB), d)
        self.lstm = nn.LSTM(d, d, batch_first=True)
        self.out = nn.Linear(d, len(VOCAB))

    def forward(self, x, state=None):
        h, state = self.lstm(self.emb(x), state)
        return F.log_softmax(self.out(h), -1), state


def batchify(stream, bsz):
    n = len(stream) // bsz
    return stream[: n * bsz].view(bsz, n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bptt", type=int, default=24)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    train = batchify(ini_stream(300, rng), 16)
    val = batchify(ini_stream(40, rng), 8)
    model = TokenLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for ep in range(args.epochs):
        state = None
        for i in range(0, train.size(1) - 1, args.bptt):
            x = train[:, i:i + args.bptt]
            y = train[:, i + 1:i + 1 + args.bptt]
            x = x[:, : y.size(1)]
            if state is not None:
                state = tuple(s.detach() for s in state)  # truncated BPTT: keep values, drop history
            logp, state = model(x, state)
            loss = F.nll_loss(logp.reshape(-1, len(VOCAB)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} loss {loss.item():.3f}")
    with torch.no_grad():
        logp, _ = model(val[:, :-1])
        acc = (logp.argmax(-1) == val[:, 1:]).float().mean().item()
    print(f"val_next_token_acc={acc:.4f}")


if __name__ == "__main__":
    main()
