import argparse

import numpy as np
import torch
import torch.nn as nn

from apiary import make_apiary


class HiveGRU(nn.Module):
    def __init__(self, n_in, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        y, h = self.gru(x, h)
        return self.out(y).squeeze(-1), h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--chunk", type=int, default=30)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    feats, delta = make_apiary(24, 730, seed=args.seed)
    # input: tomorrow's weather (the station's day-ahead forecast) and today's change;
    # target: tomorrow's change
    x = torch.from_numpy(np.concatenate([feats[:, 1:, :-1], feats[:, :-1, -1:]], axis=-1))
    y = torch.from_numpy(delta[:, 1:])
    tr_hives, va_hives = slice(0, 18), slice(18, 24)

    model = HiveGRU(x.shape[-1])
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    max_norm = 50.0  # safety net against a bad chunk; normal norms are far below this

    for epoch in range(args.epochs):
        model.train()
        h = None
        losses = []
        for start in range(0, x.shape[1], args.chunk):
            xb = x[tr_hives, start:start + args.chunk]
            yb = y[tr_hives, start:start + args.chunk]
            if h is not None:
                h = h.detach()  # keep the state, cut the graph at the chunk boundary
            pred, h = model(xb, h)
            loss = nn.functional.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            opt.step()
            losses.append(loss.item())
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} mse {np.mean(losses):.5f}")

    model.eval()
    with torch.no_grad():
        pred, _ = model(x[va_hives])
    target = y[va_hives]
    mae = (pred - target).abs().mean().item()
    naive = (x[va_hives, :, -1] - target).abs().mean().item()
    print(f"val_mae={mae:.4f}")
    print(f"val_skill={1 - mae / naive:.4f}")


if __name__ == "__main__":
    main()
