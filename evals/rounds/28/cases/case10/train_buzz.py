import argparse
import copy

import torch
from torch import nn

from pluck import dataset


class BuzzNet(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, width, 9, padding=4), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 9, padding=4, stride=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 9, padding=4, stride=2), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(width, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(1)                # logits

    @torch.no_grad()
    def predict_proba(self, x):
        return torch.sigmoid(self.forward(x))


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for be, b in zip(ema.buffers(), model.buffers()):
        be.copy_(b)


@torch.no_grad()
def random_gain(x, g):
    return x * torch.empty(x.size(0), 1, 1).uniform_(0.7, 1.3, generator=g)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)

    Xtr, ytr = map(torch.from_numpy, dataset(1600, args.seed))
    Xva, yva = map(torch.from_numpy, dataset(600, args.seed + 7))
    model = BuzzNet()
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    pos_weight = (1 - ytr.mean()) / ytr.mean()
    crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr), generator=g)
        running = 0.0
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = crit(model(random_gain(Xtr[idx], g)), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
            running += loss.item() * len(idx)
        ema.eval()
        acc = ((ema.predict_proba(Xva) > 0.5).float() == yva).float().mean().item()
        print(f"epoch {epoch + 1} loss={running / len(ytr):.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
