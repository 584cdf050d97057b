import argparse
import time

import torch
import torch.nn.functional as F

from net import Net25D
from volumes import make_volumes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--n-train", type=int, default=1200)
    p.add_argument("--n-val", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    start = time.time()
    xtr, ytr = make_volumes(args.n_train, seed=100)
    xva, yva = make_volumes(args.n_val, seed=200)

    model = Net25D()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        seen, correct, total_loss = 0, 0, 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i : i + args.batch_size]
            logits = model(xtr[idx])
            loss = F.cross_entropy(logits, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_loss += loss.item() * len(idx)
            correct += (logits.argmax(1) == ytr[idx]).sum().item()
            seen += len(idx)
        model.eval()
        with torch.no_grad():
            val_acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"[{epoch + 1}/{args.epochs}] loss={total_loss / seen:.4f} train_acc={correct / seen:.3f} val_acc={val_acc:.3f}")

    print(f"elapsed {time.time() - start:.1f}s")
    print(f"val_acc={val_acc:.4f}")


if __name__ == "__main__":
    main()
