import argparse

import torch
import torch.nn.functional as F

from kalah import sample_positions
from net import KalahNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--value-lr", type=float, default=1e-3)
    ap.add_argument("--move-lr", type=float, default=2e-3)
    ap.add_argument("--no-legal-mask", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, V, M = map(torch.from_numpy, sample_positions(6000, seed=args.seed + 1))
    Xv, Vv, Mv = map(torch.from_numpy, sample_positions(1000, seed=8080))
    v_scale = V.std()

    model = KalahNet()
    value_params = list(model.trunk.parameters()) + list(model.value_head.parameters())
    opt_value = torch.optim.Adam(value_params, lr=args.value_lr)
    opt_move = torch.optim.Adam(model.move_head.parameters(), lr=args.move_lr)
    if not args.no_legal_mask:
        model.use_legal_mask()

    for epoch in range(args.epochs):
        perm = torch.randperm(len(X))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            value, move_logits = model(X[b])
            loss_v = F.mse_loss(value, V[b] / v_scale)
            loss_m = F.cross_entropy(move_logits, M[b])
            opt_value.zero_grad()
            opt_move.zero_grad()
            (loss_v + loss_m).backward()
            opt_value.step()
            opt_move.step()
        with torch.no_grad():
            value, move_logits = model(Xv)
            mae = ((value * v_scale) - Vv).abs().mean().item()
            acc = (move_logits.argmax(1) == Mv).float().mean().item()
        print(f"epoch {epoch + 1} loss_v {loss_v.item():.3f} loss_m {loss_m.item():.3f} "
              f"val_value_mae {mae:.3f} val_move_acc {acc:.4f}")
    print(f"val_move_acc={acc:.4f}")


if __name__ == "__main__":
    main()
