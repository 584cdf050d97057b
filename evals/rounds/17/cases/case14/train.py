import argparse

import numpy as np
import torch
from torch import nn

from network import transfer_records


class TransferModel(nn.Module):
    def __init__(self, coords, width=64):
        super().__init__()
        # graph coordinates are a fixed property of the topology, not learned
        self.coords = nn.Embedding.from_pretrained(torch.from_numpy(coords), freeze=True)
        self.station_bias = nn.Embedding(len(coords), 4)
        d = 2 * (coords.shape[1] + 4) + 2
        self.mlp = nn.Sequential(nn.Linear(d, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 1))

    def forward(self, src, dst, hour):
        tod = torch.stack([torch.sin(2 * np.pi * hour / 24), torch.cos(2 * np.pi * hour / 24)], 1)
        z = torch.cat([self.coords(src), self.station_bias(src),
                       self.coords(dst), self.station_bias(dst), tod], 1)
        return self.mlp(z).squeeze(-1)


def mae_minutes(model, batch):
    model.eval()
    with torch.no_grad():
        pred = model(batch["src"], batch["dst"], batch["hour"])
    return (pred - batch["minutes"]).abs().mean().item()


def to_batch(recs):
    return {"src": torch.from_numpy(recs[:, 0]).long(), "dst": torch.from_numpy(recs[:, 1]).long(),
            "hour": torch.from_numpy(recs[:, 2]), "minutes": torch.from_numpy(recs[:, 4])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--max-grad-norm", type=float, default=50.0)
    ap.add_argument("--patience", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    adj, coords, recs = transfer_records(args.seed)
    val_days = recs[:, 3] >= 24                       # last week held out
    train, val = to_batch(recs[~val_days]), to_batch(recs[val_days])
    model = TransferModel(coords)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    loss_fn = nn.SmoothL1Loss()

    best, bad_epochs, n = float("inf"), 0, len(train["minutes"])
    best_state = None
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n)
        norms = []
        for i in range(0, n, args.batch):
            idx = perm[i:i + args.batch]
            opt.zero_grad()
            pred = model(train["src"][idx], train["dst"][idx], train["hour"][idx])
            loss = loss_fn(pred, train["minutes"][idx])
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm).item())
            opt.step()
        val_mae = mae_minutes(model, val)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} grad_norm~{np.median(norms):.2f} val_mae_min={val_mae:.3f}")
        if val_mae < best - 1e-3:
            best, bad_epochs = val_mae, 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            bad_epochs += 1
            if bad_epochs >= args.patience:
                print(f"early stop at epoch {epoch + 1}")
                break
    model.load_state_dict(best_state)
    baseline = (val["minutes"] - train["minutes"].median()).abs().mean().item()
    print(f"constant-median baseline mae={baseline:.3f}")
    print(f"val_mae_min={mae_minutes(model, val):.4f}")


if __name__ == "__main__":
    main()
