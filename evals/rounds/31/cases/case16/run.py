import os

import numpy as np
import torch
import torch.nn as nn

SEED = int(os.environ.get("SEED", 31))
WIN = 128


def sessions(n_sessions, per_session, rng):
    X, y, sess = [], [], []
    t = np.arange(WIN) / 4000
    for s in range(n_sessions):
        gain = rng.uniform(0.2, 5.0)
        for _ in range(per_session):
            lab = rng.integers(0, 2)
            x = rng.normal(0, 1, WIN) + np.sin(2 * np.pi * 120 * t) * 2
            if lab:
                x += 0.9 * np.sin(2 * np.pi * rng.uniform(900, 1400) * t)
            X.append(gain * x)
            y.append(lab)
            sess.append(s)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(sess)


def per_session_scale(X, sess):
    out = X.copy()
    for s in np.unique(sess):
        m = sess == s
        out[m] = (X[m] - X[m].mean()) / X[m].std()
    return out


class WhistleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.AdaptiveAvgPool1d(4),
            nn.Flatten(), nn.Dropout(0.5), nn.Linear(128, 1))

    def forward(self, x):
        return self.body(x.unsqueeze(1)).squeeze(1)


def evaluate(model, X, y, bs=100):
    preds = []
    with torch.no_grad():
        for i in range(0, len(X), bs):
            preds.append(model(X[i:i + bs]) > 0)
    return (torch.cat(preds).float() == y).float().mean().item()


def main():
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    X, y, sess = sessions(30, 60, rng)
    X = per_session_scale(X, sess)
    tr, va = sess < 22, sess >= 22
    Xtr, ytr = torch.tensor(X[tr]), torch.tensor(y[tr])
    # validation windows kept in recording order, sorted by label within a session
    order = np.lexsort((y[va], sess[va]))
    Xva, yva = torch.tensor(X[va][order]), torch.tensor(y[va][order])
    model = WhistleNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    lossf = nn.BCEWithLogitsLoss()
    for ep in range(8):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), 32):
            idx = perm[i:i + 32]
            loss = lossf(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = evaluate(model, Xva, yva)
        print(f"epoch {ep} loss {loss.item():.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
