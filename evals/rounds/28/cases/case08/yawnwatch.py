import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from metrics import binary_accuracy
from sessions import make_sessions


class YawnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(2, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(1),
        )
        self.fc = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = map(torch.from_numpy, make_sessions(30, 80, seed=args.seed))
    Xva, yva = map(torch.from_numpy, make_sessions(8, 80, seed=args.seed + 500))
    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)

    model = YawnNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    crit = nn.BCEWithLogitsLoss()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            logits = model(xb)
            loss = crit(logits.squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = binary_accuracy(model(Xva), yva)
        if epoch % 3 == 2:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
