import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from net import SpectraCNN, inference, random_peak_shift
from spectra import N_CLASSES, compound_peaks, make_split


def evaluate(model, loader):
    correct = total = 0
    with inference(model):
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--max-shift", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    peaks = compound_peaks(np.random.default_rng(42))
    Xtr, ytr = make_split(300, seed=1 + args.seed, peaks=peaks)
    Xte, yte = make_split(100, seed=999, peaks=peaks)
    # per-spectrum standardisation (removes the intensity scale)
    norm = lambda X: (X - X.mean(1, keepdims=True)) / X.std(1, keepdims=True)
    Xtr, Xte = norm(Xtr), norm(Xte)

    train_loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                              batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(TensorDataset(torch.from_numpy(Xte), torch.from_numpy(yte)), batch_size=100)

    model = SpectraCNN(N_CLASSES)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(args.seed)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x = random_peak_shift(x, args.max_shift, gen)
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss={loss.item():.4f} test_acc={evaluate(model, test_loader):.4f} "
              f"({time.time() - t0:.1f}s)")
    print(f"test_acc={evaluate(model, test_loader):.4f}")


if __name__ == "__main__":
    main()
