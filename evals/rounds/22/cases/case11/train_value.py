import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from board import INCIDENCE, symmetry_permutations
from positions import sample


class MillDetector(nn.Module):
    """Counts stones per mill line with a fixed incidence matrix."""

    def __init__(self):
        super().__init__()
        self.lines = nn.Linear(24, INCIDENCE.shape[0], bias=False)
        with torch.no_grad():
            self.lines.weight.copy_(torch.from_numpy(INCIDENCE))
        self.lines.requires_grad_(False)

    def forward(self, white, black):
        cw, cb = self.lines(white), self.lines(black)
        return torch.cat([(cw == 3).float(), (cb == 3).float(),
                          ((cw == 2) & (cb == 0)).float(), ((cb == 2) & (cw == 0)).float()], dim=1)


class ValueNet(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.mills = MillDetector()
        self.mlp = nn.Sequential(nn.Linear(48 + 4 * INCIDENCE.shape[0], hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, board):
        white, black = (board == 1).float(), (board == -1).float()
        x = torch.cat([white, black, self.mills(white, black)], dim=1)
        return F.log_softmax(self.mlp(x), dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="morris.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    btr, ytr = map(torch.from_numpy, sample(cfg["n_train"], seed=100))
    bva, yva = map(torch.from_numpy, sample(cfg["n_val"], seed=200))
    perms = torch.from_numpy(symmetry_permutations())
    print("class balance (train):", torch.bincount(ytr, minlength=3).tolist())

    model = ValueNet(cfg["hidden"])
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        order = torch.randperm(len(btr))
        norms = []
        for s in range(0, len(btr), cfg["batch_size"]):
            idx = order[s:s + cfg["batch_size"]]
            b, y = btr[idx], ytr[idx]
            logp = model(b)
            sym = perms[rng.integers(1, len(perms))]
            logp_sym = model(b[:, sym])
            sup = F.nll_loss(logp, y)
            consist = F.kl_div(logp_sym, logp.detach(), log_target=True, reduction="batchmean")
            loss = sup + cfg["consistency_weight"] * consist
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(params, cfg["max_grad_norm"]).item())
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(bva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch + 1:2d}  nll {sup.item():.4f}  consist {consist.item():.4f}  "
              f"grad_norm max {max(norms):.2f}  val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
