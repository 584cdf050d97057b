import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
from board import random_positions, SQUARES


class DraughtsNet(nn.Module):
    def __init__(self, width=128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(4 * SQUARES, width), nn.ReLU(),
                                   nn.Linear(width, width), nn.ReLU())
        self.value = nn.Sequential(nn.Linear(width, 1), nn.Tanh())
        self.moves = nn.Linear(width, SQUARES)

    def forward(self, x):
        h = self.trunk(x)
        return self.value(h).squeeze(-1), self.moves(h)


def mask_illegal(logits, legal):
    out = logits.data.clone()
    out[~legal] = -1e4
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--value_weight", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    X, V, M, L = map(torch.from_numpy, random_positions(20000, 1))
    Xv, Vv, Mv, Lv = map(torch.from_numpy, random_positions(2000, 2))
    net = DraughtsNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(a.seed)
    for step in range(a.steps):
        b = torch.randint(0, len(X), (a.batch,), generator=g)
        v, logits = net(X[b])
        value_loss = F.mse_loss(v, V[b])
        move_loss = F.cross_entropy(mask_illegal(logits, L[b]), M[b])
        loss = a.value_weight * value_loss + move_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 99:
            with torch.no_grad():
                vv, lv = net(Xv)
                acc = (mask_illegal(lv, Lv).argmax(1) == Mv).float().mean().item()
                vmse = F.mse_loss(vv, Vv).item()
            print(f"step {step+1} value_mse {vmse:.4f} move_acc {acc:.4f}")
    print(f"move_acc={acc:.4f}")


if __name__ == "__main__":
    main()
