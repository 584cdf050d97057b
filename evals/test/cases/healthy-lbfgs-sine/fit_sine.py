import argparse
import math

import torch
from torch import nn

WINDOW = 24


def make_waves(n_waves, length, generator):
    t = torch.arange(length, dtype=torch.float64)
    freq = 0.03 + 0.09 * torch.rand(n_waves, 1, generator=generator, dtype=torch.float64)
    phase = 2 * math.pi * torch.rand(n_waves, 1, generator=generator, dtype=torch.float64)
    amp = 0.5 + torch.rand(n_waves, 1, generator=generator, dtype=torch.float64)
    clean = amp * torch.sin(2 * math.pi * freq * t + phase)
    noisy = clean + 0.02 * torch.randn(n_waves, length, generator=generator, dtype=torch.float64)
    return noisy


def windows(waves):
    x = waves.unfold(1, WINDOW + 1, 1)
    x = x.reshape(-1, WINDOW + 1)
    return x[:, :-1], x[:, -1]


class ARNet(nn.Module):
    def __init__(self, window=WINDOW, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(window, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, history):
        return self.net(history).squeeze(-1)

    @torch.no_grad()
    def rollout(self, history, horizon):
        buf = history.clone()
        outs = []
        for _ in range(horizon):
            nxt = self(buf)
            outs.append(nxt)
            buf = torch.cat([buf[:, 1:], nxt.unsqueeze(1)], dim=1)
        return torch.stack(outs, dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--max-iter", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    train_waves = make_waves(60, 200, g)
    test_waves = make_waves(20, 200, g)
    x_train, y_train = windows(train_waves)
    x_test, y_test = windows(test_waves)

    model = ARNet().double()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=args.max_iter,
                                  history_size=20, line_search_fn="strong_wolfe")
    criterion = nn.MSELoss()
    n_evals = 0

    def closure():
        nonlocal n_evals
        n_evals += 1
        optimizer.zero_grad()
        loss = criterion(model(x_train), y_train)
        loss.backward()
        return loss

    for step in range(1, args.steps + 1):
        loss = optimizer.step(closure)
        print(f"step {step:2d}  loss {loss.item():.6f}  closure evals so far {n_evals}")

    with torch.no_grad():
        test_mse = criterion(model(x_test), y_test).item()
    horizon = 50
    history = test_waves[:, 100 - WINDOW:100]
    future = test_waves[:, 100:100 + horizon]
    rollout_mse = ((model.rollout(history, horizon) - future) ** 2).mean().item()
    print(f"test one-step mse: {test_mse:.6f}")
    print(f"test rollout-{horizon} mse: {rollout_mse:.6f}")


if __name__ == "__main__":
    main()
