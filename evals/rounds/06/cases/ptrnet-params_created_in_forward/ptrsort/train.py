import argparse

import torch
import torch.nn.functional as F

from .data import sort_batch
from .model import PointerNet


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(dim=-1)
    model.train()
    pos = (pred == y).float().mean().item()
    seq = (pred == y).all(dim=1).float().mean().item()
    return pos, seq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(1000 + args.seed)
    x_val, y_val = sort_batch(1000, args.n, torch.Generator().manual_seed(7))

    model = PointerNet(args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(1, args.steps + 1):
        x, y = sort_batch(args.batch, args.n, gen)
        logp = model(x, target=y)
        loss = F.nll_loss(logp.reshape(-1, args.n), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        opt.step()
        if step % 200 == 0:
            pos, seq = evaluate(model, x_val, y_val)
            print(f"step {step}: loss={loss.item():.4f} val_pos_acc={pos:.3f} val_seq_acc={seq:.3f}")

    pos, seq = evaluate(model, x_val, y_val)
    print(f"val_pos_acc={pos:.4f}")
    print(f"val_seq_acc={seq:.4f}")


if __name__ == "__main__":
    main()
