import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from xray import make_patches


class SobelMagnitude(nn.Module):
    """Fixed edge filter; not trained."""

    def __init__(self):
        super().__init__()
        k = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
        self.conv = nn.Conv2d(1, 2, 3, padding=1, bias=False)
        self.conv.weight.data.copy_(torch.stack([k, k.t()])[:, None])
        self.conv.requires_grad_(False)

    def forward(self, x):
        g = self.conv(x)
        return torch.sqrt(g.pow(2).sum(1, keepdim=True) + 1e-6)


class JointNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.edges = SobelMagnitude()
        self.body = nn.Sequential(
            nn.Conv2d(2, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(2 * width * 16, 32), nn.ReLU(), nn.Linear(32, 1),
        )

    def forward(self, x):
        return self.body(torch.cat([x, self.edges(x)], dim=1)).squeeze(-1)


def focal_loss(logits, target, gamma=2.0, alpha=0.75):
    """Binary focal loss on logits.  The modulating factor is treated as a
    constant weight (no gradient through it), which trains more stably here."""
    bce = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    p = torch.sigmoid(logits)
    p_t = torch.where(target > 0.5, p, 1 - p)
    a_t = torch.where(target > 0.5, torch.full_like(p, alpha), torch.full_like(p, 1 - alpha))
    return (a_t * (1 - p_t).detach() ** gamma * bce).mean()


@torch.no_grad()
def f1(model, x, y):
    model.eval()
    pred = (torch.sigmoid(model(x)) > 0.5).float()
    tp = (pred * y).sum()
    return (2 * tp / (pred.sum() + y.sum()).clamp(min=1)).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--gamma", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, y = (torch.from_numpy(a) for a in make_patches(4000, args.seed))
    xv, yv = (torch.from_numpy(a) for a in make_patches(1500, args.seed + 1))
    model = JointNet()
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(trainable, lr=2e-3)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 64):
            idx = perm[i:i + 64]
            loss = focal_loss(model(x[idx]), y[idx], gamma=args.gamma)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 3 == 2:
            print(f"epoch {epoch + 1} loss {loss.item():.5f} val_f1 {f1(model, xv, yv):.3f}")
    print(f"val_f1={f1(model, xv, yv):.4f}")


if __name__ == "__main__":
    main()
