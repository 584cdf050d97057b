import argparse
import time

import torch
import torch.nn as nn

from climate import simulate


class MassBalanceLSTM(nn.Module):
    def __init__(self, d_in=4, hidden=48):
        super().__init__()
        self.lstm = nn.LSTM(d_in, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, state=None):
        h, state = self.lstm(x, state)
        return self.out(h).squeeze(-1), state


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--chunk", type=int, default=24, help="months per TBPTT segment")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    x, mb = simulate(seed=3)
    scale = mb.std().item()
    y = mb / scale
    split = int(0.8 * x.shape[1])

    model = MassBalanceLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        model.train()
        state = None
        total, n = 0.0, 0
        for s in range(0, split, args.chunk):
            e = min(s + args.chunk, split)
            pred, state = model(x[:, s:e], state)
            loss = loss_fn(pred, y[:, s:e])
            opt.zero_grad()
            loss.backward()
            opt.step()
            # keep the snowpack memory, drop the graph of the previous segment
            state = tuple(h.detach() for h in state)
            total += loss.item()
            n += 1

        model.eval()
        with torch.no_grad():
            pred, _ = model(x)                          # warm up on the training months
            rmse = ((pred[:, split:] - y[:, split:]) ** 2).mean().sqrt().item() * scale
        if epoch % 3 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:2d} train_mse {total / n:.4f} val_rmse {rmse:.4f} m w.e.")

    clim = ((mb[:, split:] - mb[:, :split].mean()) ** 2).mean().sqrt().item()
    print(f"climatology_rmse={clim:.4f}  {time.time() - t0:.1f}s")
    print(f"val_rmse_mwe={rmse:.4f}")


if __name__ == "__main__":
    main()
