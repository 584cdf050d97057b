import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from phantom import make_volumes


class Cube3D(nn.Module):
    def __init__(self, width=12, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv3d(1, width, 3, padding=1), nn.BatchNorm3d(width), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(width, 2 * width, 3, padding=1), nn.BatchNorm3d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(2 * width, n_classes),
        )

    def forward(self, x):
        return self.net(x)


class ValidationCallback:
    """Runs after every epoch; leaves the model the way it found it."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __call__(self, model, epoch):
        was_training = model.training
        model.eval()
        with torch.inference_mode():
            acc = (model(self.x).argmax(1) == self.y).float().mean().item()
        model.train(was_training)
        print(f"  [val] epoch {epoch} acc {acc:.3f}")
        return acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, y = (torch.from_numpy(a) for a in make_volumes(1500, args.seed))
    xv, yv = (torch.from_numpy(a) for a in make_volumes(500, args.seed + 1))
    with torch.no_grad():
        counts = torch.bincount(y, minlength=3).float()
        class_w = counts.sum() / (3 * counts)

    model = Cube3D()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    callback = ValidationCallback(xv, yv)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(y))
        running = 0.0
        for i in range(0, len(y), 32):
            idx = perm[i:i + 32]
            logp = F.log_softmax(model(x[idx]), dim=1)
            loss = F.nll_loss(logp, y[idx], weight=class_w)
            opt.zero_grad()
            loss.backward()
            gnorm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=25.0)
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / ((len(y) + 31) // 32):.4f} last_gnorm {gnorm.item():.2f}")
        callback(model, epoch)

    model.eval()
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
