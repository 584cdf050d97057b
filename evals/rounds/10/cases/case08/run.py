import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from bsurrogate.blackscholes import call_price, sample_contracts
from bsurrogate.features import Standardizer, contract_features
from bsurrogate.model import PriceNet
from bsurrogate.pricing import price_calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--n-train", type=int, default=12000)
    ap.add_argument("--n-val", type=int, default=3000)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    train_c = sample_contracts(args.n_train, rng)
    val_c = sample_contracts(args.n_val, rng)
    y_train = call_price(**train_c) / train_c["K"]
    y_val = call_price(**val_c)

    x_train = contract_features(train_c)
    scaler = Standardizer().fit(x_train)
    ds = TensorDataset(torch.tensor(scaler.transform(x_train), dtype=torch.float32),
                       torch.tensor(y_train, dtype=torch.float32))
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True,
                        num_workers=args.workers, persistent_workers=args.workers > 0)

    model = PriceNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            loss = torch.nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        sched.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch+1} train_mse={total/len(ds):.2e} lr={sched.get_last_lr()[0]:.1e}")

    pred = price_calls(model, scaler, val_c)
    rel = np.sqrt(np.mean(((pred - y_val) / val_c["K"]) ** 2)) / np.std(y_val / val_c["K"])
    print(f"val_rel_rmse={100 * rel:.3f}")


if __name__ == "__main__":
    main()
