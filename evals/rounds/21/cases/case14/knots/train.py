import argparse
import torch
import torch.nn.functional as F
from .grammar import corpus, STEPS
from .model import KnotLM


def shift(batch):
    return batch[:, :-1], batch[:, 1:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    train = torch.from_numpy(corpus(1500, 1))
    val = torch.from_numpy(corpus(300, 2))
    model = KnotLM(len(STEPS))
    model._head()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(train), generator=g)
        for i in range(0, len(perm), 32):
            x, y = shift(train[perm[i:i + 32]])
            logits = model(x)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), ignore_index=0)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            x, y = shift(val)
            pred = model(x).argmax(-1)
            mask = y != 0
            acc = (pred[mask] == y[mask]).float().mean().item()
        print(f"epoch {ep+1} loss {loss.item():.3f} val_next_acc {acc:.4f}")
    print(f"val_next_acc={acc:.4f}")


if __name__ == "__main__":
    main()
