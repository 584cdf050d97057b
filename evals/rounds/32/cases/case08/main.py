import argparse

import torch
import torch.nn as nn

from pan import N_BINS, synth_spectra


class PitchNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_BINS, hidden), nn.GELU(),
                                  nn.Linear(hidden, hidden), nn.GELU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, spec):
        return self.out(self.body(spec))


def smooth_l1(pred, target, beta=0.5):
    diff = (pred - target).abs()
    return torch.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta).mean()


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).squeeze(-1) - y).abs().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x, y = synth_spectra(3000, args.seed)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    x_tr, y_tr, x_va, y_va = x[:2400], y[:2400], x[2400:], y[2400:]
    model = PitchNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x_tr))
        for s in range(0, len(perm), 64):
            idx = perm[s:s + 64]
            loss = smooth_l1(model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_mae {evaluate(model, x_va, y_va):.3f}")
    print(f"val_mae_semitones={evaluate(model, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
