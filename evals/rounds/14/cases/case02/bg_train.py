import argparse
import copy
import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from games import encode, mirror, simulate_games


class ValueNet(nn.Module):
    def __init__(self, d_in, hidden=80):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)                 # logit of P(side to move wins)

    def win_probability(self, x):
        return torch.sigmoid(self(x))


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm, alpha=1 - decay)


def auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty(len(scores))
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float)
    pos = labels > 0.5
    n1, n0 = pos.sum().item(), (~pos).sum().item()
    return (ranks[pos].sum().item() - n1 * (n1 + 1) / 2) / (n1 * n0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="bg.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    t0 = time.time()

    (b, bar, off), y = simulate_games(cfg["n_train"], seed=1)
    (vb, vbar, voff), vy = simulate_games(cfg["n_val"], seed=2)
    x, xm = encode(b, bar, off), encode(*mirror(b, bar, off))
    vx = encode(vb, vbar, voff)

    model = ValueNet(x.shape[1])
    ema = copy.deepcopy(model)
    ema.requires_grad_(False)          # only ever moved by ema_update
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(y))
        run = 0.0
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i : i + cfg["batch_size"]]
            logit = model(x[idx])
            outcome_loss = F.binary_cross_entropy_with_logits(logit, y[idx])
            target = (1 - ema.win_probability(xm[idx])).detach()
            mirror_loss = F.mse_loss(torch.sigmoid(logit), target)
            loss = outcome_loss + cfg["mirror_weight"] * mirror_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, cfg["ema_decay"])
            run += outcome_loss.item() * len(idx)
        ema.eval()
        with torch.no_grad():
            val_auc = auc(ema.win_probability(vx), vy)
        print(f"epoch {epoch} bce {run / len(y):.4f} val_auc {val_auc:.4f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_auc={val_auc:.4f}")


if __name__ == "__main__":
    main()
