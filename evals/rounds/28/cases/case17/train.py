import argparse
import json

import torch
from torch import nn

from brewery import N_GRADES, brew_records


class CumulativeGradeNet(nn.Module):
    def __init__(self, n_in, hidden, n_grades):
        super().__init__()
        self.body = nn.Sequential(
            nn.BatchNorm1d(n_in),                          # brewing records come in raw units
            nn.Linear(n_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
        )
        self.score = nn.Linear(hidden, 1)
        self.cuts = nn.Parameter(torch.linspace(-1.5, 1.5, n_grades - 1))

    def forward(self, x):
        return self.score(self.body(x)) - self.cuts          # (B, K-1) logits of grade > k


def cumulative_targets(y, n_grades):
    return (y[:, None] > torch.arange(n_grades - 1)[None, :]).float()


def predict_grade(logits):
    return (logits > 0).sum(dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hparams", default="hparams.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    hp = json.load(open(args.hparams))
    if args.seed is not None:
        hp["seed"] = args.seed
    torch.manual_seed(hp["seed"])

    X, y = map(torch.from_numpy, brew_records(hp["n_tanks"], hp["seed"]))
    n_val = len(y) // 5
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]

    model = CumulativeGradeNet(X.shape[1], hp["hidden"], N_GRADES)
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    bce = nn.BCEWithLogitsLoss()
    micro = hp["batch_size"] // hp["accum_steps"]       # samples per forward pass

    for epoch in range(hp["epochs"]):
        model.train()
        perm = torch.randperm(len(ytr))
        opt.zero_grad()
        for k, i in enumerate(range(0, len(perm) - micro + 1, micro)):
            idx = perm[i:i + micro]
            loss = bce(model(Xtr[idx]), cumulative_targets(ytr[idx], N_GRADES)) / hp["accum_steps"]
            loss.backward()
            if (k + 1) % hp["accum_steps"] == 0:
                opt.step()
                opt.zero_grad()
        model.eval()
        with torch.no_grad():
            pred = predict_grade(model(Xva))
            acc = (pred == yva).float().mean().item()
            within1 = ((pred - yva).abs() <= 1).float().mean().item()
        print(f"epoch {epoch + 1} val_acc={acc:.4f} val_within1={within1:.4f}")
    print(f"val_acc={acc:.4f} val_within1={within1:.4f}")


if __name__ == "__main__":
    main()
