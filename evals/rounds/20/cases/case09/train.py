import argparse

import torch

from model import FlawNet, focal_bce
from survey import random_patches, survey_run


def evaluate(model, X, y, batch_size=20):
    model.eval
    preds = []
    with torch.no_grad():
        for i in range(0, len(X), batch_size):
            preds.append(torch.sigmoid(model(X[i:i + batch_size])) > 0.5)
    pred = torch.cat(preds).float()
    tp = (pred * y).sum().item()
    fp = (pred * (1 - y)).sum().item()
    fn = ((1 - pred) * y).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = map(torch.from_numpy, random_patches(3000, seed=args.seed))
    Xva, yva, _ = survey_run(1000, seed=args.seed + 1)
    Xva, yva = torch.from_numpy(Xva), torch.from_numpy(yva)

    model = FlawNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            j = perm[i:i + 64]
            loss = focal_bce(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} focal {loss.item():.4f} val_f1 {evaluate(model, Xva, yva):.4f}")
    print(f"val_f1={evaluate(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
