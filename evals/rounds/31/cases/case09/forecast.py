import numpy as np
import torch
import torch.nn as nn

LOOKBACK = 48
HORIZON = 6
SEED = 0


def make_windows(level, rain, lookback=LOOKBACK, horizon=HORIZON):
    """Sliding windows: inputs are the past `lookback` hours, target is `horizon` hours later."""
    xs, ys = [], []
    for start in range(0, len(level) - lookback - horizon):
        end = start + lookback + horizon
        past_level = level[start + horizon:end]
        past_rain = rain[start:start + lookback]
        xs.append(np.concatenate([past_level, past_rain]))
        ys.append(level[end - 1])
    return np.array(xs, np.float32), np.array(ys, np.float32)


class Forecaster(nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    torch.manual_seed(SEED)
    d = np.load("series.npz")
    level, rain = d["level"], d["rain"]
    mu, sd = level[: int(0.8 * len(level))].mean(), level[: int(0.8 * len(level))].std()
    level_n = (level - mu) / sd
    X, y = make_windows(level_n, rain)
    split = int(0.8 * len(X))
    Xtr, ytr = torch.tensor(X[:split]), torch.tensor(y[:split])
    Xva, yva = torch.tensor(X[split + LOOKBACK:]), torch.tensor(y[split + LOOKBACK:])
    model = Forecaster(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for ep in range(15):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), 128):
            idx = perm[i:i + 128]
            loss = nn.functional.mse_loss(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            rmse = ((model(Xva) - yva) ** 2).mean().sqrt().item() * sd * 100
        print(f"epoch {ep} train_mse {loss.item():.4f} val_rmse_cm {rmse:.2f}")
    print(f"val_rmse_cm={rmse:.3f}")


if __name__ == "__main__":
    main()
