import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from synth import N_BANDS, corpus


def stack_context(feats, k):
    """(U, T, F) -> (U, T, (2k+1)F) with edge padding."""
    padded = F.pad(feats.permute(0, 2, 1), (k, k), mode="replicate").permute(0, 2, 1)
    wins = padded.unfold(1, 2 * k + 1, 1)          # (U, T, F, 2k+1)
    return wins.permute(0, 1, 3, 2).reshape(feats.shape[0], feats.shape[1], -1)


def cmvn(x):
    return (x - x.mean(1, keepdim=True)) / (x.std(1, keepdim=True) + 1e-5)


def median_smooth(decisions, k):
    """Median filter along time for each utterance; decisions (U, T) in {0,1}."""
    pad = k // 2
    x = F.pad(decisions.float().unsqueeze(1), (pad, pad), mode="replicate").squeeze(1)
    windows = x.unfold(1, k, 1)                    # (U, T, k)
    return windows.median(dim=-1)[1]


class FrameMLP(nn.Module):
    def __init__(self, d_in, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--context", type=int, default=3)
    ap.add_argument("--median", type=int, default=9)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = corpus(120, 300, seed=1 + args.seed)
    xte, yte = corpus(40, 300, seed=1000 + args.seed)
    xtr = stack_context(cmvn(torch.from_numpy(xtr)), args.context)
    xte = stack_context(cmvn(torch.from_numpy(xte)), args.context)
    ytr, yte = torch.from_numpy(ytr).float(), torch.from_numpy(yte)

    frames_x = xtr.reshape(-1, xtr.shape[-1])
    frames_y = ytr.reshape(-1)
    model = FrameMLP(frames_x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(frames_y))
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            loss = F.binary_cross_entropy_with_logits(model(frames_x[idx]), frames_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            raw = (model(xte) > 0).long()
        print(f"epoch {epoch+1} loss={loss.item():.4f} raw_frame_acc={(raw == yte).float().mean():.4f}")

    smoothed = median_smooth(raw, args.median)
    acc = (smoothed == yte).float().mean().item()
    print(f"smoothed_frame_acc={acc:.4f}")


if __name__ == "__main__":
    main()
