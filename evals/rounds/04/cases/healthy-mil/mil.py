import argparse
import copy
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

D = 16


def make_bags(n, seed):
    rng = np.random.default_rng(seed)
    tumour = np.random.default_rng(9).normal(size=D) * 1.2
    bags, labels = [], []
    for _ in range(n):
        k = int(rng.integers(8, 41))
        x = rng.normal(size=(k, D))
        y = int(rng.random() < 0.5)
        if y:
            m = int(rng.integers(1, 4))
            x[:m] += tumour
            rng.shuffle(x)
        bags.append(x.astype(np.float32))
        labels.append(y)
    return bags, np.array(labels)


def pad(bags):
    L = max(len(b) for b in bags)
    X = torch.zeros(len(bags), L, D)
    mask = torch.zeros(len(bags), L, dtype=torch.bool)  # True = real patch
    for i, b in enumerate(bags):
        X[i, :len(b)] = torch.from_numpy(b)
        mask[i, :len(b)] = True
    return X, mask


class GatedAttentionMIL(nn.Module):
    def __init__(self, hidden=64, att=32):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(D, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.V = nn.Linear(hidden, att)
        self.U = nn.Linear(hidden, att)
        self.w = nn.Linear(att, 1)
        self.cls = nn.Linear(hidden, 1)

    def forward(self, x, mask):
        h = self.feat(x)                                            # (B, N, H)
        a = self.w(torch.tanh(self.V(h)) * torch.sigmoid(self.U(h))).squeeze(-1)
        a = a.masked_fill(~mask, float("-inf")).softmax(dim=1)      # over patches
        z = (a.unsqueeze(-1) * h).sum(1)
        return self.cls(z).squeeze(-1), a.detach()                  # attention returned for heatmaps only


def auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


@torch.no_grad()
def score(model, bags, y, bs=64):
    model.eval()
    out = []
    for i in range(0, len(bags), bs):
        X, m = pad(bags[i:i + bs])
        out.append(model(X, m)[0])
    return auc(y, torch.cat(out).numpy())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--patience", type=int, default=6)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    tr_b, tr_y = make_bags(800, 1)
    va_b, va_y = make_bags(200, 2)
    te_b, te_y = make_bags(300, 3)
    model = GatedAttentionMIL()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-4)
    best, wait, buf = -1.0, 0, None
    for epoch in range(1, args.epochs + 1):
        model.train()
        order = rng.permutation(len(tr_b))
        tot = 0.0
        for i in range(0, len(order), 16):
            idx = order[i:i + 16]
            X, m = pad([tr_b[j] for j in idx])
            logits, att = model(X, m)
            loss = F.binary_cross_entropy_with_logits(logits, torch.tensor(tr_y[idx], dtype=torch.float32))
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        v = score(model, va_b, va_y)
        if v > best:
            best, wait = v, 0
            buf = io.BytesIO()
            torch.save(model.state_dict(), buf)
        else:
            wait += 1
        print(f"epoch {epoch:3d} loss {tot / len(order):.4f} val_auc {v:.4f} max_att {att.max().item():.2f}")
        if wait >= args.patience:
            break
    buf.seek(0)
    model.load_state_dict(torch.load(buf))
    model.eval()
    print(f"best_val_auc={best:.4f}")
    print(f"test_auc={score(model, te_b, te_y):.4f}")


if __name__ == "__main__":
    main()
