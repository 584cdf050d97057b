import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from signals import simulate_bounces


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=25)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--log-every", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


class ForceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.ReLU(),
            nn.Conv1d(16, 16, 7, padding=3), nn.ReLU(),
            nn.AdaptiveMaxPool1d(8),
        )
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(128, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.fc(self.conv(x.unsqueeze(1))).squeeze(1)


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    x, y = simulate_bounces(3000, args.seed)
    scale = float(np.abs(x[:2400]).max())
    y_mu, y_sd = float(y[:2400].mean()), float(y[:2400].std())
    xt = torch.from_numpy(x / scale)
    yt = torch.from_numpy((y - y_mu) / y_sd)
    train = TensorDataset(xt[:2400], yt[:2400])
    x_val, y_val = xt[2400:], torch.from_numpy(y[2400:])
    loader = DataLoader(train, batch_size=args.batch_size, shuffle=True)

    model = ForceNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loss_fn = nn.MSELoss()

    step = 0
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            loss = loss_fn(model(xb), yb)
            loss.backward()
            if step % args.log_every == 0:
                gnorm = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
                print(f"step {step:5d} loss {loss.item():.4f} grad_norm {gnorm:.3f}")
                optimizer.zero_grad()
            optimizer.step()
            step += 1

        model.eval()
        with torch.no_grad():
            pred = model(x_val) * y_sd + y_mu
            rmse = torch.sqrt(((pred - y_val) ** 2).mean()).item()
        print(f"epoch {epoch + 1} val_rmse_bw {rmse:.4f}")

    print(f"val_rmse_bw={rmse:.4f}")


if __name__ == "__main__":
    main()
