import argparse
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FRAMES, FEATS = 40, 8


def sessions(n_sess, per, seed):
    rng = np.random.default_rng(seed)
    xs, ys, sid = [], [], []
    for s in range(n_sess):
        gain = rng.uniform(0.3, 3.0)
        offset = rng.normal(0, 2)
        y = (rng.random(per) < 0.4).astype(np.float32)
        x = rng.normal(0, 1, (per, FRAMES, FEATS))
        onset = rng.integers(5, 25, per)
        for i in np.where(y == 1)[0]:
            x[i, onset[i]:onset[i] + 6, :4] += 2.0   # burst in the low bands
            x[i, onset[i] + 6:onset[i] + 12, 4:] += 1.0  # voiced tail
        xs.append(gain * x + offset); ys.append(y); sid += [s] * per
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys), np.array(sid)


def per_session_scale(x, sid):
    out = np.empty_like(x)
    for s in np.unique(sid):
        m = sid == s
        out[m] = (x[m] - x[m].mean()) / (x[m].std() + 1e-6)
    return out


class ChunkGRU(nn.Module):
    def __init__(self, hid=32, chunk=10):
        super().__init__()
        self.gru = nn.GRU(FEATS, hid, batch_first=True)
        self.head = nn.Linear(hid, 1)
        self.chunk = chunk

    def forward(self, x):
        h = None
        pooled = []
        for t0 in range(0, x.size(1), self.chunk):
            out, h = self.gru(x[:, t0:t0 + self.chunk], h)
            pooled.append(out.max(1).values)
            h = h.detach()  # truncated BPTT: keep the state, drop the history
        return self.head(torch.stack(pooled, 1).max(1).values).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    x, y, s = sessions(30, 60, 1)
    xv, yv, sv = sessions(10, 60, 2)
    x, xv = per_session_scale(x, s), per_session_scale(xv, sv)
    x, y, xv, yv = map(torch.from_numpy, (x, y, xv, yv))
    model = ChunkGRU()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(x), generator=g)
        for i in range(0, len(perm), 32):
            b = perm[i:i + 32]
            loss = F.binary_cross_entropy_with_logits(model(x[b]), y[b])
            opt.zero_grad(); loss.backward(); opt.step()
        model.eval()
        with torch.no_grad():
            acc = ((model(xv) > 0).float() == yv).float().mean().item()
        print(f"epoch {ep+1} loss {loss.item():.4f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
