import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from jitter_data import N_USERS, JitterSet, user_profiles


def accuracy(logits, targets):
    return (logits.argmax(dim=1) == targets).float().mean().item()


def run_eval(model, loader):
    model.eval()
    outs, tgts = [], []
    with torch.no_grad():
        for feats, user in loader:
            outs.append(model(feats))
            tgts.append(user)
    return accuracy(torch.cat(outs), torch.cat(tgts))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    prof = user_profiles(np.random.default_rng(8))
    train_dl = DataLoader(JitterSet(2400, prof, seed=1), batch_size=64, shuffle=True)
    val_dl = DataLoader(JitterSet(800, prof, seed=2), batch_size=200)

    n_in = train_dl.dataset.feats.shape[1]
    model = nn.Sequential(nn.Linear(n_in, 128), nn.ReLU(), nn.Dropout(0.2),
                          nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, N_USERS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-4)
    ce = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        tl = 0.0
        for feats, user in train_dl:
            loss = ce(model(feats), user.squeeze(1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            tl += loss.item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1}: loss {tl / len(train_dl):.4f}  val_accuracy {run_eval(model, val_dl):.4f}")
    print(f"val_accuracy={run_eval(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
