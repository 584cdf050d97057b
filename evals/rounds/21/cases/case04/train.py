import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
from voxels import scaffold


class VoxNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.f = nn.Sequential(
            nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1))
        self.cls = nn.Linear(16, n_cls)

    def forward(self, v):
        return self.cls(self.f(v).flatten(1))


@torch.no_grad()
def evaluate(model, vols, labels, bs=100):
    model.eval()
    hits = 0
    for i in range(0, len(vols), bs):
        pred = model(vols[i:i + bs]).argmax(1, keepdim=True)
        hits += (pred == labels[i:i + bs]).sum().item()
    return hits / len(vols)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    xtr, ytr = map(torch.from_numpy, scaffold(900, 1))
    xva, yva = map(torch.from_numpy, scaffold(300, 2))
    model = VoxNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(perm), 32):
            b = perm[i:i + 32]
            loss = F.cross_entropy(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = evaluate(model, xva, yva)
        print(f"epoch {ep+1} loss {loss.item():.4f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
