import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 5


def line_kernels():
    k = torch.zeros(4, 1, 4, 4)
    k[0, 0, 0, :] = 1  # horizontal
    k[1, 0, :, 0] = 1  # vertical
    k[2, 0] = torch.eye(4)
    k[3, 0] = torch.eye(4).flip(1)
    return k


def random_positions(n, rng):
    """Boards with stones of both players; label = 1 if the side to move has an open
    three-or-more run that can be completed on the next move."""
    boards = np.zeros((n, 2, N, N), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        cells = rng.permutation(N * N)
        k = rng.integers(4, 10)
        for j, c in enumerate(cells[:k]):
            boards[i, j % 2, c // N, c % N] = 1
        if rng.random() < 0.5:  # plant a completable line for the mover
            r, c0 = rng.integers(0, N), rng.integers(0, 2)
            boards[i, :, r, c0:c0 + 4] = 0
            boards[i, 0, r, c0:c0 + 3] = 1
            y[i] = 1
    # augment with transposes so vertical lines appear too
    flip = rng.random(n) < 0.5
    boards[flip] = boards[flip].transpose(0, 1, 3, 2)
    return torch.from_numpy(boards), torch.from_numpy(y)


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lines = nn.Conv2d(1, 4, 4, padding=2, bias=False)
        self.lines.weight.data.copy_(line_kernels())
        self.lines.requires_grad_(False)  # hand-made detector, deliberately kept fixed
        self.trunk = nn.Sequential(nn.Conv2d(2 + 8, 32, 3, padding=1), nn.ReLU(),
                                   nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(32, 1)

    def forward(self, b):
        mine, theirs = b[:, :1], b[:, 1:]
        feats = torch.cat([self.lines(mine)[..., :N, :N], self.lines(theirs)[..., :N, :N]], 1)
        h = self.trunk(torch.cat([b, feats], 1))
        return self.head(h.amax((2, 3))).squeeze(-1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm, alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    xtr, ytr = random_positions(3000, rng)
    xva, yva = random_positions(600, rng)
    model = ValueNet()
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=2e-3)
    for ep in range(args.epochs):
        perm = torch.randperm(len(xtr))
        losses = []
        for i in range(0, len(xtr), 64):
            b = perm[i:i + 64]
            loss = F.binary_cross_entropy_with_logits(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, 0.98)
            losses.append(loss.item())
        if ep % 5 == 0:
            print(f"epoch {ep} loss {np.mean(losses):.4f}")
    ema.eval()
    with torch.no_grad():
        acc = ((ema(xva) > 0).float() == yva).float().mean().item()
    print(f"val_acc_ema={acc:.4f}")


if __name__ == "__main__":
    main()
