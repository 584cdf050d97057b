import argparse
import math

import numpy as np
import torch

from mdn import MDNRNN, mdn_nll
from tracks import simulate_track


def to_streams(track, n_streams):
    """(N, 2) -> (n_streams, N // n_streams, 2): contiguous pieces, one per batch row."""
    per = len(track) // n_streams
    return torch.from_numpy(track[:per * n_streams]).view(n_streams, per, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--streams", type=int, default=32)
    ap.add_argument("--bptt", type=int, default=50)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=250.0, help="guard against rare spikes only")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    train = to_streams(simulate_track(32_000, seed=args.seed), args.streams)
    val = torch.from_numpy(simulate_track(4_000, seed=args.seed + 77)).unsqueeze(0)
    flat = train.reshape(-1, 2)
    m, v = flat.mean(0), flat.var(0)
    gauss_nll = (0.5 * torch.log(2 * math.pi * v) + 0.5).sum().item()   # unconditional baseline

    model = MDNRNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        state = None
        losses = []
        for s in range(0, train.shape[1] - 1, args.bptt):
            x = train[:, s:s + args.bptt]
            y = train[:, s + 1:s + args.bptt + 1]       # next displacement
            x = x[:, :y.shape[1]]
            if state is not None:
                state = tuple(h.detach() for h in state)  # truncated BPTT
            log_pi, mu, log_sigma, state = model(x, state)
            loss = mdn_nll(log_pi, mu, log_sigma, y)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            losses.append(loss.item())

        model.eval()
        with torch.no_grad():
            log_pi, mu, log_sigma, _ = model(val[:, :-1])
            val_nll = mdn_nll(log_pi, mu, log_sigma, val[:, 1:]).item()
        model.train()
        print(f"epoch {epoch}  train_nll {np.mean(losses):.4f}  val_nll {val_nll:.4f}  (gaussian {gauss_nll:.4f})")

    print(f"METRIC val_nll={val_nll:.4f}")


if __name__ == "__main__":
    main()
