import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from breath import traces, HOLES


class BreathNet(nn.Module):
    def __init__(self, c=24, n_classes=2 * HOLES):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, c, 7, padding=3), nn.ReLU(),
            nn.Conv1d(c, c, 7, padding=3, dilation=1), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(c, 2 * c, 5, padding=2), nn.ReLU())
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(4 * c, n_classes)

    def forward(self, x):
        h = self.conv(x.unsqueeze(1))
        h = torch.cat([h.mean(-1), h.amax(-1)], 1)
        return F.log_softmax(self.fc(self.drop(h)), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=25.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = traces(5000, seed=args.seed)
    Xv, yv = traces(1000, seed=args.seed + 1)
    X, y, Xv, yv = map(torch.from_numpy, (X, y, Xv, yv))

    model = BreathNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(X))
        tot, max_norm = 0.0, 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = nll(model(X[b]), y[b])
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            max_norm = max(max_norm, norm.item())
            opt.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            logp = model(Xv)
            acc = (logp.argmax(-1) == yv).float().mean().item()
            conf = logp.exp().max(-1).values.mean().item()
        print(f"epoch {epoch + 1} nll={tot / len(X):.4f} max_grad_norm={max_norm:.2f} "
              f"val_acc={acc:.3f} mean_conf={conf:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
