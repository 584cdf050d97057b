import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

from housing import FEATURES, HousesDataset, Standardizer, load_rows, raw_tensors

SEED = 0
CSV_PATH = "data/houses.csv"
EPOCHS = 20
BATCH_SIZE = 64
LR = 3e-3


class PriceMLP(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, 32), nn.ReLU(),
            nn.Linear(32, 32), nn.ReLU(),
            nn.Linear(32, 1),
        )

    def forward(self, x):
        x = x.reshape(x.shape[1], x.shape[0], *x.shape[2:]).transpose(0, 1)
        return self.net(x).squeeze(-1)  # (batch,) to match the (batch,) targets


def r2_score(pred, target):
    ss_res = ((target - pred) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1.0 - (ss_res / ss_tot).item()


def main():
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)

    rows = load_rows(CSV_PATH)
    # every fifth house (by id) is held out
    train_rows = [r for r in rows if int(r["id"]) % 5 != 0]
    val_rows = [r for r in rows if int(r["id"]) % 5 == 0]
    print(f"{len(train_rows)} train / {len(val_rows)} val rows, features: {', '.join(FEATURES)}")

    x_train, y_train = raw_tensors(train_rows)
    x_scaler = Standardizer().fit(x_train)
    y_scaler = Standardizer().fit(y_train)
    train_ds = HousesDataset(train_rows, x_scaler, y_scaler)
    val_ds = HousesDataset(val_rows, x_scaler, y_scaler)
    train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=len(val_ds))

    model = PriceMLP(len(FEATURES))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)

    for epoch in range(EPOCHS):
        model.train()
        losses = []
        for xb, yb in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            losses.append(loss.item())
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:2d}  train mse (scaled) {sum(losses) / len(losses):.4f}")

    model.eval()
    with torch.no_grad():
        xb, yb = next(iter(val_loader))
        pred_price = y_scaler.inverse(model(xb))
        true_price = y_scaler.inverse(yb)
    rmse = torch.sqrt(((pred_price - true_price) ** 2).mean()).item()
    r2 = r2_score(pred_price, true_price)
    print(f"val RMSE {rmse:.2f} k$")
    print(f"METRIC val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
