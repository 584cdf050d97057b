import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from nets import FatigueNet
from pipeline import FEATURES, ZScore, group_split, load_sessions


def evaluate(model, loader):
    model.eval()
    y_true, y_prob = [], []
    with torch.no_grad():
        for x, y in loader:
            y_prob.append(torch.softmax(model(x), dim=1)[:, 1])
            y_true.append(y)
    y_true = torch.cat(y_true).numpy()
    y_prob = torch.cat(y_prob).numpy()
    acc = ((y_prob > 0.5).astype(int) == y_true).mean()
    # rank-based AUC (Mann-Whitney)
    ranks = np.argsort(np.argsort(y_prob)) + 1
    n_pos, n_neg = y_true.sum(), (1 - y_true).sum()
    auc = (ranks[y_true == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    return acc, auc


def main():
    parser = argparse.ArgumentParser(description="Fatigue detection from gait sessions")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    x, y, participant = load_sessions()
    train_idx, test_idx = group_split(participant, seed=args.seed)
    assert not set(participant[train_idx]) & set(participant[test_idx])
    scaler = ZScore(x[train_idx])
    print(f"{len(train_idx)} train sessions / {len(test_idx)} test sessions "
          f"({len(np.unique(participant[test_idx]))} held-out participants)")
    corr = np.corrcoef(x[:, FEATURES.index("self_reported_fatigue")], y)[0, 1]
    print(f"corr(self_reported_fatigue, label) = {corr:.2f}")

    def loader(idx, shuffle):
        ds = TensorDataset(torch.from_numpy(scaler(x[idx]).astype(np.float32)), torch.from_numpy(y[idx]))
        return DataLoader(ds, batch_size=32, shuffle=shuffle)

    train_loader, test_loader = loader(train_idx, True), loader(test_idx, False)
    model = FatigueNet(len(FEATURES))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(1, args.epochs + 1):
        model.train()
        for xb, yb in train_loader:
            optimizer.zero_grad()
            loss_fn(model(xb), yb).backward()
            optimizer.step()
        if epoch % 20 == 0:
            acc, auc = evaluate(model, test_loader)
            print(f"epoch {epoch}: test_acc={acc:.3f} test_auc={auc:.3f}")


if __name__ == "__main__":
    main()
