import argparse
import math

import torch
import torch.nn.functional as F

from data import checkerboard
from sgd import MomentumSGD

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def init_weights(n_in, n_hidden, n_out, generator):
    W1 = (torch.randn(n_in, n_hidden, generator=generator) * math.sqrt(2.0 / n_in)).to(device).requires_grad_()
    b1 = torch.zeros(n_hidden, device=device, requires_grad=True)
    W2 = (torch.randn(n_hidden, n_out, generator=generator) * math.sqrt(1.0 / n_hidden)).to(device).requires_grad_()
    b2 = torch.zeros(n_out, device=device, requires_grad=True)
    return W1, b1, W2, b2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=120)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--batch-size", type=int, default=64)
    args = ap.parse_args()

    g = torch.Generator().manual_seed(0)
    x_train, y_train = checkerboard(2000, g)
    x_test, y_test = checkerboard(500, g)
    x_train, y_train = x_train.to(device), y_train.to(device)
    x_test, y_test = x_test.to(device), y_test.to(device)

    W1, b1, W2, b2 = init_weights(2, args.hidden, 4, g)

    def predict(x):
        h = torch.relu(x @ W1 + b1)
        return h @ W2 + b2

    opt = MomentumSGD([W1, b1, W2, b2], lr=args.lr)
    n = len(x_train)
    for epoch in range(1, args.epochs + 1):
        if epoch in (60, 100):
            opt.lr *= 0.3
        perm = torch.randperm(n, generator=g).to(device)
        epoch_loss = 0.0
        for i in range(0, n, args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = F.cross_entropy(predict(x_train[idx]), y_train[idx])
            loss.backward()
            opt.step()
            opt.zero_grad()
            epoch_loss += loss.item() * len(idx)
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d} | loss {epoch_loss / n:.4f} | lr {opt.lr:.4f}")
        if epoch_loss / n < 1e-3:
            print(f"converged at epoch {epoch}")
            break

    with torch.no_grad():
        acc = (predict(x_test).argmax(1) == y_test).float().mean().item()
    print(f"test accuracy: {acc:.4f}")


if __name__ == "__main__":
    main()
