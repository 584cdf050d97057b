import argparse

import numpy as np
import torch

from .client import Client
from .data import dirichlet_shards, synthetic, to_tensors
from .models import make_model
from .server import evaluate, fedavg


def main():
    ap = argparse.ArgumentParser(prog="python -m fedsim.train")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--per-round", type=int, default=6)
    ap.add_argument("--local-epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    x, y = synthetic(8000, rng)
    xt, yt = to_tensors(*synthetic(2000, rng))
    shards = dirichlet_shards(y, args.clients, args.alpha, rng)
    X, Y = to_tensors(x, y)
    clients = [Client(k, X[s], Y[s], make_model, args.lr, args.batch_size)
               for k, s in enumerate(shards) if len(s) > 0]
    print(f"{len(clients)} clients, sizes {min(map(len, clients))}..{max(map(len, clients))}")

    global_model = make_model()
    for rnd in range(1, args.rounds + 1):
        chosen = rng.choice(len(clients), size=args.per_round, replace=False)
        updates = [clients[c].local_update(global_model, args.local_epochs, gen) for c in chosen]
        global_model.load_state_dict(fedavg(updates))
        if rnd % 5 == 0:
            print(f"round {rnd} global_test_acc={evaluate(global_model, xt, yt):.4f}")
    print(f"global_test_acc={evaluate(global_model, xt, yt):.4f}")


if __name__ == "__main__":
    main()
