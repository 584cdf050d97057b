import argparse
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from folds import N_TOK, build_batch, fold_sequence


class FoldLM(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(N_TOK, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, N_TOK)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def masked_ce(logits, targets, keep):
    ce = F.cross_entropy(logits.reshape(-1, N_TOK), targets.reshape(-1), reduction="none")
    keep = keep.reshape(-1).float()
    return (ce * keep).sum() / keep.sum().clamp(min=1.0)


def evaluate(model, batches):
    correct = total = 0
    with torch.no_grad():
        for inp, tgt, _ in batches:
            real = tgt.ne(0)
            pred = model(inp).argmax(-1)
            correct += (pred.eq(tgt) & real).sum().item()
            total += real.sum().item()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    train = [build_batch([fold_sequence(rng) for _ in range(32)]) for _ in range(60)]
    val = [build_batch([fold_sequence(rng) for _ in range(64)]) for _ in range(5)]
    model = FoldLM()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ep in range(args.epochs):
        for inp, tgt, keep in train:
            loss = masked_ce(model(inp), tgt, keep)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} loss {loss.item():.3f}")
    print(f"val_next_fold_acc={evaluate(model, val):.4f}")


if __name__ == "__main__":
    main()
