import argparse

import torch
import torch.nn.functional as F
from torch import nn

from pen import make_traces


class NibGRU(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.gru = nn.GRU(3, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        seq, h = self.gru(x, h)
        return self.out(seq).squeeze(-1), h


class Validator:
    """Called from the training loop; leaves the model in the mode it found it in."""

    def __init__(self, X, Y, chunk):
        self.X, self.Y, self.chunk = X, Y, chunk

    def __call__(self, model):
        was_training = model.training
        model.eval()
        err, n, h = 0.0, 0, None
        with torch.no_grad():
            for s in range(0, self.X.shape[1], self.chunk):
                pred, h = model(self.X[:, s:s + self.chunk], h)
                err += (pred - self.Y[:, s:s + self.chunk]).abs().sum().item()
                n += pred.numel()
        model.train(was_training)
        return err / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--traces", type=int, default=80)
    ap.add_argument("--length", type=int, default=800)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, Y = make_traces(args.traces, args.length, args.seed)
    X, Y = torch.from_numpy(X), torch.from_numpy(Y)
    nv = args.traces // 5
    Xtr, Ytr, Xva, Yva = X[nv:], Y[nv:], X[:nv], Y[:nv]
    validate = Validator(Xva, Yva, args.chunk)

    model = NibGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    batch = 16
    chunks_per_epoch = ((len(Xtr) + batch - 1) // batch) * (args.length // args.chunk)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * chunks_per_epoch)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for b in range(0, len(perm), batch):
            idx = perm[b:b + batch]
            h = None
            for s in range(0, args.length, args.chunk):
                if h is not None:
                    h = h.detach()           # truncate BPTT at the chunk boundary
                pred, h = model(Xtr[idx, s:s + args.chunk], h)
                loss = F.smooth_l1_loss(pred, Ytr[idx, s:s + args.chunk], beta=0.1)
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
        print(f"epoch {epoch + 1} last_loss={loss.item():.4f} lr={sched.get_last_lr()[0]:.2e} "
              f"val_mae_mm={validate(model):.4f}")
    print(f"val_mae_mm={validate(model):.4f}")


if __name__ == "__main__":
    main()
