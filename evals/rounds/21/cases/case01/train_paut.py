import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
from scans import ascan_batch, N_ELEMENTS


def focal_bce(logits, targets, gamma=2.0, alpha=0.75):
    """Binary focal loss on logits (Lin et al.), mean over the batch."""
    bce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p = torch.sigmoid(logits)
    p_t = p * targets + (1 - p) * (1 - targets)
    a_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (a_t * (1 - p_t) ** gamma * bce).mean()


class ScanNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_ELEMENTS, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(1))
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1)).squeeze(-1)


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    xtr, ytr = map(torch.from_numpy, ascan_batch(1500, 3))
    xva, yva = map(torch.from_numpy, ascan_batch(600, 4))
    model = ScanNet()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(perm), 50):
            b = perm[i:i + 50]
            logits = model(xtr[b])
            loss = focal_bce(ytr[b], logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            f1 = f1_score((model(xva) > 0).long(), yva.long())
        print(f"epoch {ep+1} loss {loss.item():.4f} val_f1 {f1:.4f}")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
