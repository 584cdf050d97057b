import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from traces import sample

N_USERS = 10


class Encoder(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(4, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU())

    def forward(self, v):
        # velocity plus speed and turn-rate channels
        speed = v.norm(dim=-1, keepdim=True)
        ang = torch.atan2(v[..., 1], v[..., 0])
        turn = torch.remainder(ang.diff(dim=1, prepend=ang[:, :1]) + torch.pi, 2 * torch.pi) - torch.pi
        x = torch.cat([v, speed, turn.unsqueeze(-1)], -1).transpose(1, 2)
        h = self.conv(x)
        return torch.cat([h.mean(-1), h.std(-1)], -1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--speed-lr", type=float, default=0.01)
    ap.add_argument("--speed-weight", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, u, s = sample(4000, N_USERS, seed=args.seed)
    Xv, uv, sv = sample(1000, N_USERS, seed=args.seed + 1)
    X, u, s = torch.from_numpy(X), torch.from_numpy(u), torch.from_numpy(s)
    Xv, uv, sv = torch.from_numpy(Xv), torch.from_numpy(uv), torch.from_numpy(sv)

    enc = Encoder()
    id_head = nn.Linear(64, N_USERS)
    speed_head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(list(enc.parameters()) + list(id_head.parameters()), lr=args.lr)
    opt_speed = torch.optim.SGD(speed_head.parameters(), lr=args.speed_lr, momentum=0.9)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(X))
        tot_id = tot_sp = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            z = enc(X[b])
            loss_id = F.cross_entropy(id_head(z), u[b])
            loss_speed = F.mse_loss(speed_head(z).squeeze(-1), s[b])
            opt.zero_grad()
            (loss_id + args.speed_weight * loss_speed).backward()
            opt.step()
            opt_speed.step()
            tot_id += loss_id.item() * len(b)
            tot_sp += loss_speed.item() * len(b)
        with torch.no_grad():
            zv = enc(Xv)
            acc = (id_head(zv).argmax(-1) == uv).float().mean().item()
            mae = (speed_head(zv).squeeze(-1) - sv).abs().mean().item()
        print(f"epoch {epoch + 1} ce={tot_id / len(X):.3f} speed_mse={tot_sp / len(X):.3f} "
              f"val_acc={acc:.3f} val_speed_mae={mae:.3f}")

    print(f"val_acc={acc:.4f}")
    print(f"val_speed_mae={mae:.4f}")


if __name__ == "__main__":
    main()
