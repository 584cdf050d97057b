import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from cursive import recording


class StrokeRNN(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.inp = nn.Linear(2 + 3, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.offset = nn.Linear(hidden, 2)
        self.pen = nn.Linear(hidden, 3)

    def forward(self, offsets, pen, h=None):
        x = torch.cat([offsets, F.one_hot(pen, 3).float()], -1)
        out, h = self.rnn(torch.relu(self.inp(x)), h)
        return self.offset(out), F.log_softmax(self.pen(out), dim=-1), h


def streams(offsets, pen, n_streams):
    """Cut one long recording into n parallel streams (batch dimension)."""
    T = len(offsets) // n_streams
    return offsets[:T * n_streams].view(n_streams, T, 2), pen[:T * n_streams].view(n_streams, T)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--bptt", type=int, default=40)
    ap.add_argument("--streams", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr_off, tr_pen = streams(*recording(400, seed=args.seed), args.streams)
    va_off, va_pen = streams(*recording(80, seed=args.seed + 1), 4)
    model = StrokeRNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()

    for epoch in range(args.epochs):
        h = None
        T = tr_off.shape[1]
        for t0 in range(0, T - 1, args.bptt):
            t1 = min(t0 + args.bptt, T - 1)
            x_off, x_pen = tr_off[:, t0:t1], tr_pen[:, t0:t1]
            y_off, y_pen = tr_off[:, t0 + 1:t1 + 1], tr_pen[:, t0 + 1:t1 + 1]    # next step
            if h is not None:
                h = h.detach()              # truncated BPTT: keep the state, drop its history
            pred_off, pen_logp, h = model(x_off, x_pen, h)
            loss = F.mse_loss(pred_off, y_off) + 0.5 * nll(pen_logp.reshape(-1, 3), y_pen.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        with torch.no_grad():
            pred_off, pen_logp, _ = model(va_off[:, :-1], va_pen[:, :-1])
            val_mse = F.mse_loss(pred_off, va_off[:, 1:]).item()
            pen_acc = (pen_logp.argmax(-1) == va_pen[:, 1:]).float().mean().item()
        print(f"epoch {epoch + 1} train_loss {loss.item():.4f} val_offset_mse {val_mse:.5f} val_pen_acc {pen_acc:.3f}")

    baseline = F.mse_loss(va_off[:, :-1], va_off[:, 1:]).item()
    print(f"repeat-last baseline mse {baseline:.5f}")
    print(f"val_offset_mse={val_mse:.5f}")


if __name__ == "__main__":
    main()
