import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from reader import StripReader
from strips import glyph_bank, make_split


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--n-train", type=int, default=3000)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    bank = glyph_bank()
    xtr, ytr = make_split(args.n_train, 4, seed=1 + args.seed, bank=bank)
    xte, yte = make_split(1000, 4, seed=999, bank=bank)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)), batch_size=args.batch_size, shuffle=True)
    test_dl = DataLoader(TensorDataset(torch.from_numpy(xte), torch.from_numpy(yte)), batch_size=200)

    model = StripReader()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_dl:
            logits = model(xb)
            loss = F.cross_entropy(logits.reshape(-1, 10), yb.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        full = chars = n = 0
        with torch.no_grad():
            for xb, yb in test_dl:
                pred = model(xb).argmax(-1)
                full += (pred == yb).all(1).sum().item()
                chars += (pred == yb).float().mean(1).sum().item()
                n += len(yb)
        print(f"epoch {epoch}  loss {loss.item():.4f}  char_acc {chars / n:.4f}  string_acc {full / n:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC string_acc={full / n:.4f}")


if __name__ == "__main__":
    main()
