import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from ocean import simulate

CONTEXT = 2


def windows(fields, length):
    """Cut [Y, T, H, W] into overlapping clips of `length` consecutive days."""
    clips = [y[t:t + length] for y in fields for t in range(0, fields.shape[1] - length + 1)]
    return torch.from_numpy(np.stack(clips))


class NextFrame(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(CONTEXT, ch, 5, padding=2, padding_mode="circular"), nn.GELU(),
            nn.Conv2d(ch, ch, 5, padding=2, padding_mode="circular"), nn.GELU(),
            nn.Conv2d(ch, 1, 3, padding=1, padding_mode="circular"),
        )

    def forward(self, past):                       # past: [B, CONTEXT, H, W]
        return past[:, -1:] + self.net(past)       # predict the change from the last day


def rollout_loss(model, clip, steps):
    """Unroll `steps` days; inputs at step k are (day k, day k+1), target is day k+2."""
    past = clip[:, :CONTEXT]
    loss = 0.0
    for k in range(steps):
        target = clip[:, CONTEXT + k:CONTEXT + k + 1]
        pred = model(past)
        loss = loss + F.mse_loss(pred, target)
        # truncated rollout: no gradient through earlier predictions
        past = torch.cat([past[:, 1:], pred.detach()], 1)
    return loss / steps


@torch.no_grad()
def one_step_rmse(model, clips):
    model.eval()
    pred = model(clips[:, :CONTEXT])
    model.train()
    target = clips[:, CONTEXT:CONTEXT + 1]
    return F.mse_loss(pred, target).sqrt().item(), F.mse_loss(clips[:, CONTEXT - 1:CONTEXT], target).sqrt().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--rollout", type=int, default=3)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    fields = simulate(n_years=10, days=40, seed=2024)
    train_clips = windows(fields[:8], CONTEXT + args.rollout)
    val_clips = windows(fields[8:], CONTEXT + 1)
    print(f"train clips {tuple(train_clips.shape)}, val clips {tuple(val_clips.shape)}")

    model = NextFrame()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(train_clips))
        tot = 0.0
        for i in range(0, len(perm), 32):
            loss = rollout_loss(model, train_clips[perm[i:i + 32]], args.rollout)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        rmse, _ = one_step_rmse(model, val_clips)
        print(f"epoch {epoch + 1} train {tot / ((len(perm) + 31) // 32):.5f} val_rmse {rmse:.4f}")

    rmse, persist = one_step_rmse(model, val_clips)
    print(f"persistence_rmse={persist:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
