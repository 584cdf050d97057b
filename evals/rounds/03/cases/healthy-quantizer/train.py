"""Quantization-aware training of a 4-bit-activation / 4-bit-weight MLP on
micro-Doppler spectrograms, with an exponential moving average of the weights
used for evaluation."""
import argparse
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from doppler import BINS, CLASSES, FRAMES, make_split
from quant import QuantMLP


@torch.no_grad()
def ema_update(ema, model, decay):
    for p_ema, p in zip(ema.parameters(), model.parameters()):
        p_ema.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for b_ema, b in zip(ema.buffers(), model.buffers()):
        b_ema.copy_(b)


@torch.no_grad()
def accuracy(net, x, y):
    was = net.training
    net.eval()
    acc = (net(x).argmax(1) == y).float().mean().item()
    net.train(was)
    return acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--act-bits", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, y_tr = map(torch.from_numpy, make_split(3000, seed=args.seed))
    x_te, y_te = map(torch.from_numpy, make_split(1000, seed=2468))
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.batch_size, shuffle=True)

    model = QuantMLP(BINS * FRAMES, len(CLASSES), act_bits=args.act_bits)
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        total = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
            total += loss.item() * len(y)
        print(f"epoch {epoch:2d}  loss {total / len(x_tr):.4f}  acc {accuracy(model, x_te, y_te):.4f}  "
              f"ema_acc {accuracy(ema, x_te, y_te):.4f}  act_range {model.act1.seen_max.item():.2f}")

    print(f"test_acc={accuracy(ema, x_te, y_te):.4f}")


if __name__ == "__main__":
    main()
