import argparse

import numpy as np
import torch
import torch.nn as nn

from station import simulate


class GasLSTM(nn.Module):
    def __init__(self, n_feat=4, hidden=48):
        super().__init__()
        self.lstm = nn.LSTM(n_feat, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, state=None):
        out, state = self.lstm(x, state)
        return self.head(out).squeeze(-1), state


def to_streams(series, n_streams):
    """Cut one long record into `n_streams` parallel contiguous streams (B, T, F)."""
    T = len(series) // n_streams
    return torch.tensor(series[:T * n_streams].reshape(n_streams, T, -1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bptt", type=int, default=50)
    ap.add_argument("--streams", type=int, default=16)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    data = simulate(24000, args.seed)
    cut = int(0.75 * len(data))
    mu, sd = data[:cut].mean(0), data[:cut].std(0)
    data = (data - mu) / sd
    train, val = to_streams(data[:cut], args.streams), torch.tensor(data[cut:])[None]

    model = GasLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    max_norm = 100.0     # safety net against rare spikes; typical norms are far below
    for epoch in range(args.epochs):
        state, losses, norms = None, [], []
        for s in range(0, train.size(1) - 1, args.bptt):
            x = train[:, s:s + args.bptt]
            y = train[:, s + 1:s + args.bptt + 1, 0]
            x = x[:, :y.size(1)]
            if state is not None:
                state = tuple(h.detach() for h in state)   # truncate BPTT at the chunk boundary
            pred, state = model(x, state)
            loss = nn.functional.mse_loss(pred, y)
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), max_norm).item())
            opt.step()
            losses.append(loss.item())
        with torch.no_grad():
            pred, _ = model(val[:, :-1])
            target = val[0, 1:, 0]
            r2 = 1 - ((pred[0] - target) ** 2).sum() / ((target - target.mean()) ** 2).sum()
        print(f"epoch {epoch + 1}  train_mse {np.mean(losses):.4f}  grad_norm max {max(norms):.2f}  val_r2 {r2:.4f}")
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
