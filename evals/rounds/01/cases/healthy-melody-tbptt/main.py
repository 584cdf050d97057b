import argparse
import math
import time

import torch
import torch.nn as nn

from corpus import VOCAB, make_stream
from model import MelodyLSTM


def batchify(stream, bsz):
    """1-D token stream -> (T, bsz): column b is a contiguous slice of the stream."""
    data = torch.tensor(stream, dtype=torch.long)
    n = data.size(0) // bsz
    return data[:n * bsz].view(bsz, n).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, source.size(0) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def repackage(state):
    """Keep the values of the hidden state, drop its history (truncated BPTT)."""
    return tuple(s.detach() for s in state)


def evaluate(model, source, bptt, criterion):
    model.eval()
    total, count = 0.0, 0
    state = model.init_state(source.size(1))
    with torch.no_grad():
        for i in range(0, source.size(0) - 1, bptt):
            x, y = get_batch(source, i, bptt)
            logp, state = model(x, state)
            total += criterion(logp.view(-1, VOCAB), y.reshape(-1)).item() * y.numel()
            count += y.numel()
    return total / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tunes", type=int, default=2500)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    train = batchify(make_stream(args.tunes, args.seed), args.batch_size)
    valid = batchify(make_stream(args.tunes // 8, args.seed + 1), 16)
    print(f"train {tuple(train.shape)} valid {tuple(valid.shape)} vocab {VOCAB}")

    model = MelodyLSTM(VOCAB)
    criterion = nn.NLLLoss()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        state = model.init_state(args.batch_size)
        total, norms = 0.0, []
        n_batches = 0
        for i in range(0, train.size(0) - 1, args.bptt):
            x, y = get_batch(train, i, args.bptt)
            state = repackage(state)
            opt.zero_grad()
            logp, state = model(x, state)
            loss = criterion(logp.view(-1, VOCAB), y.reshape(-1))
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), args.clip).item())
            opt.step()
            total += loss.item()
            n_batches += 1
        val_loss = evaluate(model, valid, args.bptt, criterion)
        print(f"epoch {epoch} train_ppl {math.exp(total / n_batches):.3f} val_ppl {math.exp(val_loss):.3f} "
              f"grad_norm median {sorted(norms)[len(norms) // 2]:.3f} max {max(norms):.3f} [{time.time() - t0:.1f}s]")
    print(f"val_ppl={math.exp(evaluate(model, valid, args.bptt, criterion)):.4f}")


if __name__ == "__main__":
    main()
