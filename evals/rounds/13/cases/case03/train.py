import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from game import FACE_UP, HAND, RANKS, SUITS, deal_games


class DuelNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        n_in = (HAND + FACE_UP) * (RANKS + SUITS)
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.policy_head = nn.Linear(hidden, HAND)
        # value head: raw deal encoding + detached trunk features
        self.value_head = nn.Sequential(nn.Linear(hidden + n_in, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        h = self.trunk(x)
        return self.policy_head(h), self.value_head(torch.cat([h.detach(), x], -1)).squeeze(-1)


def build_optimizers(net, lr, value_lr):
    opt_policy = torch.optim.Adam(
        list(net.trunk.parameters()) + list(net.policy_head.parameters()), lr=lr)
    opt_value = torch.optim.Adam(net.policy_head.parameters(), lr=value_lr)
    return opt_policy, opt_value


@torch.no_grad()
def evaluate(net, x, d, w):
    net.eval()
    logits, v = net(x)
    net.train()
    return (logits.argmax(1) == d).float().mean().item(), ((v > 0).float() == w).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=12000)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--value-lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, d, w = map(torch.from_numpy, deal_games(args.games, args.seed))
    n_val = args.games // 6
    xv, dv, wv = x[:n_val], d[:n_val], w[:n_val]
    xt, dt, wt = x[n_val:], d[n_val:], w[n_val:]
    print(f"win rate in training deals: {wt.mean():.3f}")

    net = DuelNet()
    opt_policy, opt_value = build_optimizers(net, args.lr, args.value_lr)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(xt))
        lp = lv = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            logits, v = net(xt[idx])
            policy_loss = F.cross_entropy(logits, dt[idx])
            value_loss = F.binary_cross_entropy_with_logits(v, wt[idx])
            opt_policy.zero_grad()
            opt_value.zero_grad()
            (policy_loss + value_loss).backward()
            opt_policy.step()
            opt_value.step()
            lp += policy_loss.item()
            lv += value_loss.item()
        nb = (len(perm) + args.batch_size - 1) // args.batch_size
        pa, va = evaluate(net, xv, dv, wv)
        print(f"epoch {epoch + 1:2d} policy {lp / nb:.3f} value {lv / nb:.3f} | val policy_acc {pa:.3f} value_acc {va:.3f}")

    pa, va = evaluate(net, xv, dv, wv)
    print(f"policy_acc={pa:.4f}")
    print(f"value_acc={va:.4f}")


if __name__ == "__main__":
    main()
