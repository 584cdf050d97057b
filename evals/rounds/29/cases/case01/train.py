import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from hashing import featurize
from payloads import make_payloads, PRODUCTS


class TicketNet(nn.Module):
    def __init__(self, n_buckets, hidden=64, n_classes=len(PRODUCTS)):
        super().__init__()
        self.proj = nn.Linear(n_buckets, hidden)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.out(self.drop(F.relu(self.proj(x))))

    def predict_proba(self, x):
        return F.softmax(self.forward(x), dim=-1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--max-lr", type=float, default=3e-3)
    ap.add_argument("--ema", type=float, default=0.98)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr_text, tr_y = make_payloads(3000, args.seed)
    va_text, va_y = make_payloads(800, args.seed + 1)
    xtr, xva = torch.from_numpy(featurize(tr_text)), torch.from_numpy(featurize(va_text))
    ytr, yva = torch.tensor(tr_y), torch.tensor(va_y)

    model = TicketNet(xtr.shape[1])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=args.max_lr, weight_decay=1e-4)
    steps_per_epoch = (len(ytr) + args.batch_size - 1) // args.batch_size
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.max_lr,
                                                epochs=args.epochs,
                                                steps_per_epoch=steps_per_epoch)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), args.batch_size):
            j = perm[i:i + args.batch_size]
            loss = F.cross_entropy(model(xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()            # OneCycle is a per-batch schedule
            ema_update(ema, model, args.ema)
        ema.eval()
        with torch.no_grad():
            conf = ema.predict_proba(xva).max(-1).values.mean().item()
            acc = (ema(xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.3f} lr {sched.get_last_lr()[0]:.2e} "
              f"val_acc(ema) {acc:.3f} mean_conf {conf:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
