import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn

from corpus import build_corpus
from model import RNNModel

parser = argparse.ArgumentParser(description="AWD-style LSTM LM on a synthetic grammar")
parser.add_argument("--emsize", type=int, default=48)
parser.add_argument("--nhid", type=int, default=96)
parser.add_argument("--lr", type=float, default=3e-3)
parser.add_argument("--clip", type=float, default=0.25)
parser.add_argument("--epochs", type=int, default=6)
parser.add_argument("--batch-size", type=int, default=32)
parser.add_argument("--bptt", type=int, default=24)
parser.add_argument("--wdecay", type=float, default=1.2e-6)
parser.add_argument("--seed", type=int, default=1111)
parser.add_argument("--data-seed", type=int, default=1234)
parser.add_argument("--log-interval", type=int, default=20)
args = parser.parse_args()

torch.manual_seed(args.seed)
np.random.seed(args.seed)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data[: nbatch * bsz]
    return data.view(bsz, -1).t().contiguous()  # (T, B)


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i:i + seq_len].reshape(-1)
    return data, target


def repackage_hidden(h):
    """Cut the graph between BPTT windows, keep the values."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return type(h)(repackage_hidden(v) for v in h)


vocab, train_ids, valid_ids = build_corpus(seed=args.data_seed)
ntokens = len(vocab)
train_data = batchify(torch.from_numpy(train_ids), args.batch_size)
val_data = batchify(torch.from_numpy(valid_ids), 10)

model = RNNModel(ntokens, args.emsize, args.nhid)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.wdecay)


def evaluate(data_source, bsz=10):
    model.eval()
    total_loss, n = 0.0, 0
    hidden = model.init_hidden(bsz)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args.bptt):
            data, targets = get_batch(data_source, i, args.bptt)
            output, hidden = model(data, hidden)
            total_loss += len(data) * criterion(output.view(-1, ntokens), targets).item()
            n += len(data)
            hidden = repackage_hidden(hidden)
    return total_loss / n


def train(epoch):
    model.train()
    total_loss, start = 0.0, time.time()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i, args.bptt)
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        total_loss += loss.item()
        if batch % args.log_interval == 0 and batch > 0:
            cur = total_loss / args.log_interval
            print(f"| epoch {epoch:2d} | batch {batch:4d} | {1000 * (time.time() - start) / args.log_interval:5.1f} ms/batch"
                  f" | loss {cur:5.2f} | ppl {math.exp(cur):7.2f}")
            total_loss, start = 0.0, time.time()


for epoch in range(1, args.epochs + 1):
    t0 = time.time()
    train(epoch)
    val_loss = evaluate(val_data)
    print("-" * 70)
    print(f"| end of epoch {epoch:2d} | time {time.time() - t0:5.1f}s | valid loss {val_loss:5.3f} | valid ppl {math.exp(val_loss):7.3f}")
    print("-" * 70)

val_loss = evaluate(val_data)
print(f"val_ppl={math.exp(val_loss):.3f}")
