"""Tiny vision transformer on synthetic outline shapes."""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from shapes import CLASSES, make_images
from vit import TinyViT


def param_groups(model, weight_decay):
    """No weight decay on biases, norms, positional embedding and class token."""
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if p.ndim < 2 or name in ("pos_embed", "cls_token"):
            no_decay.append(p)
        else:
            decay.append(p)
    return [{"params": decay, "weight_decay": weight_decay},
            {"params": no_decay, "weight_decay": 0.0}]


def warmup_cosine(total, warmup):
    def f(step):
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))
    return f


@torch.no_grad()
def evaluate(model, loader, criterion):
    model.eval()
    loss = correct = n = 0
    for x, y in loader:
        logp = model(x)
        loss += criterion(logp, y).item() * len(y)
        correct += (logp.argmax(1) == y).sum().item()
        n += len(y)
    model.train()
    return loss / n, correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=0.05)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, y_tr = make_images(2400, seed=args.seed)
    x_va, y_va = make_images(1000, seed=99)
    train_loader = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                              batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(torch.from_numpy(x_va), torch.from_numpy(y_va)), batch_size=500)

    model = TinyViT(len(CLASSES))
    criterion = nn.NLLLoss()
    opt = torch.optim.AdamW(param_groups(model, args.weight_decay), lr=args.lr)
    total = args.epochs * len(train_loader)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine(total, warmup=total // 10))

    for epoch in range(1, args.epochs + 1):
        run_loss, max_norm = 0.0, 0.0
        for x, y in train_loader:
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            norm = nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            max_norm = max(max_norm, norm.item())
            opt.step()
            sched.step()
            run_loss += loss.item() * len(y)
        val_loss, val_acc = evaluate(model, val_loader, criterion)
        print(f"epoch {epoch:2d}  train_nll {run_loss / len(x_tr):.4f}  val_nll {val_loss:.4f}  "
              f"val_acc {val_acc:.4f}  max_grad_norm {max_norm:.2f}")

    print(f"val_acc={evaluate(model, val_loader, criterion)[1]:.4f}")


if __name__ == "__main__":
    main()
