import argparse

import torch
import torch.nn.functional as F

from data import batchify, simulate_load
from model import LoadForecaster


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--bptt", type=int, default=48)
    ap.add_argument("--streams", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def main():
    args = parse()
    torch.manual_seed(args.seed)
    load = simulate_load(seed=args.seed)
    test_hours = 2 * 7 * 24
    train, test = load[:-test_hours], load[-test_hours:]
    mean, std = train.mean(0), train.std(0)
    train, test = (train - mean) / std, (test - mean) / std

    streams = batchify(train, args.streams)
    model = LoadForecaster(n_feeders=load.size(1), hidden=args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        hidden = None
        losses = []
        for start in range(0, streams.size(1) - 1, args.bptt):
            end = min(start + args.bptt, streams.size(1) - 1)
            inputs = streams[:, start:end]
            targets = streams[:, start + 1:end + 1]
            if hidden is not None:
                hidden = hidden.detach()
            preds, hidden = model(inputs, hidden)
            loss = F.mse_loss(preds, targets)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            losses.append(loss.item())
        if epoch % 3 == 0 or epoch == 1:
            print(f"epoch {epoch:2d}  train_mse {sum(losses) / len(losses):.4f}")

    model.eval()
    with torch.no_grad():
        _, hidden = model(train.unsqueeze(0))
        preds, _ = model(test[:-1].unsqueeze(0), hidden)
        test_mse = F.mse_loss(preds.squeeze(0), test[1:]).item()
        persistence = F.mse_loss(test[:-1], test[1:]).item()
    print(f"persistence mse: {persistence:.4f}")
    print(f"test mse: {test_mse:.4f}")


if __name__ == "__main__":
    main()
