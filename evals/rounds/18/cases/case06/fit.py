import argparse
import json

import torch
import torch.nn as nn

from blocks import simulate_blocks


class VoxNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv3d(1, ch, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(ch, ch * 2, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool3d(1),
            nn.Flatten(), nn.Linear(ch * 2, 1), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.net(x).squeeze(1)  # probability of ore


def auc(scores, labels):
    order = torch.argsort(scores)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


class EvalCallback:
    def __init__(self, X, y, every):
        self.X, self.y, self.every = X, y, every
        self.last = float("nan")

    def on_epoch_end(self, model, epoch):
        if (epoch + 1) % self.every:
            return
        was_training = model.training
        model.eval()
        with torch.no_grad():
            self.last = auc(model(self.X), self.y)
        model.train(was_training)
        print(f"epoch {epoch + 1} val_auc={self.last:.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="orevox.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    Xtr, ytr = map(torch.from_numpy, simulate_blocks(cfg["n_train"], seed=1))
    Xva, yva = map(torch.from_numpy, simulate_blocks(cfg["n_val"], seed=2))

    model = VoxNet()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bce = nn.BCELoss()
    cb = EvalCallback(Xva, yva, cfg["eval_every"])
    bs, accum = cfg["batch_size"], cfg["accum_steps"]
    model.train()
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(Xtr))
        for step, i in enumerate(range(0, len(perm), bs)):
            b = perm[i:i + bs]
            p = model(Xtr[b])
            with torch.no_grad():
                target_p = model(torch.flip(Xtr[b], dims=[2]))  # stop-gradient consistency target
            loss = bce(p, ytr[b]) + cfg["consistency_weight"] * (p - target_p).pow(2).mean()
            (loss / accum).backward()
            if (step + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
        cb.on_epoch_end(model, epoch)
    print(f"val_auc={cb.last:.4f}")


if __name__ == "__main__":
    main()
