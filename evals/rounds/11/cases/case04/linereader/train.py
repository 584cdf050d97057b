import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .data import MeterLines
from .model import ColumnReader


def parse():
    p = argparse.ArgumentParser(prog="python -m linereader.train")
    p.add_argument("--train-lines", type=int, default=4000)
    p.add_argument("--val-lines", type=int, default=800)
    p.add_argument("--line-len", type=int, default=8)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


@torch.no_grad()
def char_accuracy(model, loader):
    model.eval()
    hit = tot = 0
    for x, y in loader:
        pred = model(x).argmax(-1)
        hit += (pred == y).sum().item()
        tot += y.numel()
    model.train()
    return hit / tot


def main():
    args = parse()
    torch.manual_seed(args.seed)
    train_set = MeterLines(args.train_lines, args.line_len, seed=1000 + args.seed)
    val_set = MeterLines(args.val_lines, args.line_len, seed=77)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True,
                              num_workers=args.workers, persistent_workers=args.workers > 0,
                              generator=torch.Generator().manual_seed(args.seed))
    val_loader = DataLoader(val_set, batch_size=256, num_workers=args.workers,
                            persistent_workers=args.workers > 0)

    model = ColumnReader()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        tot, n = 0.0, 0
        for x, y in train_loader:
            logits = model(x)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item(); n += 1
        print(f"epoch {epoch + 1} loss={tot / n:.4f} val_char_acc={char_accuracy(model, val_loader):.4f} "
              f"({time.time() - t0:.0f}s)")
    print(f"char_acc={char_accuracy(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
