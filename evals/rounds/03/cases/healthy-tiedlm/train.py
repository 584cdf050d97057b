"""Truncated-BPTT training of a tied-weight LSTM language model on melodies
(same batching scheme as the classic word-level language model example)."""
import argparse
import math

import torch
import torch.nn as nn

from lm import MelodyLM
from melody import VOCAB, generate_stream


def batchify(stream, bsz):
    """(N,) -> (N // bsz, bsz): each column is a contiguous slice of the stream."""
    n = stream.size(0) // bsz
    return stream[: n * bsz].view(bsz, n).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def detach_state(hidden):
    # keep the state across segments but stop backprop at the segment boundary
    return tuple(h.detach() for h in hidden)


@torch.no_grad()
def evaluate(model, source, bptt, criterion):
    model.eval()
    total, count, hidden = 0.0, 0, None
    for i in range(0, source.size(0) - 1, bptt):
        x, y = get_batch(source, i, bptt)
        logits, hidden = model(x, hidden)
        total += criterion(logits.view(-1, VOCAB), y.reshape(-1)).item() * y.numel()
        count += y.numel()
    model.train()
    return total / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--bptt", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = batchify(torch.from_numpy(generate_stream(60_000, seed=args.seed)), args.batch_size)
    valid = batchify(torch.from_numpy(generate_stream(8_000, seed=1234)), 8)

    model = MelodyLM(VOCAB)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    print(f"train tokens {train.numel()}, params {sum(p.numel() for p in model.parameters())}, "
          f"uniform ppl {VOCAB}")

    for epoch in range(1, args.epochs + 1):
        hidden, total, n, largest = None, 0.0, 0, 0.0
        for i in range(0, train.size(0) - 1, args.bptt):
            x, y = get_batch(train, i, args.bptt)
            if hidden is not None:
                hidden = detach_state(hidden)
            logits, hidden = model(x, hidden)
            loss = criterion(logits.view(-1, VOCAB), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            largest = max(largest, nn.utils.clip_grad_norm_(model.parameters(), args.clip).item())
            opt.step()
            total += loss.item()
            n += 1
        val = evaluate(model, valid, args.bptt, criterion)
        print(f"epoch {epoch}  train_ppl {math.exp(total / n):.2f}  val_ppl {math.exp(val):.2f}  "
              f"largest grad norm {largest:.2f}")

    print(f"val_ppl={math.exp(evaluate(model, valid, args.bptt, criterion)):.4f}")


if __name__ == "__main__":
    main()
