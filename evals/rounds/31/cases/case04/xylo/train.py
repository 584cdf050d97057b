import argparse

import torch

from .data import N_BINS, strike_spectra
from .model import PitchMLP


def build_optim(model, args):
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    # halve the learning rate every few epochs
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=args.decay_every, gamma=0.5)
    return opt, sched


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--decay-every", type=int, default=6)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    Xtr, ytr = strike_spectra(3000, args.seed)
    Xva, yva = strike_spectra(600, args.seed + 100)
    model = PitchMLP(N_BINS)
    opt, sched = build_optim(model, args)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), args.bs):
            idx = perm[i:i + args.bs]
            loss = torch.nn.functional.mse_loss(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            mae = (model(Xva) - yva).abs().mean().item()
        print(f"epoch {epoch} train_mse {loss.item():.3f} val_mae {mae:.3f} lr {opt.param_groups[0]['lr']:.2e}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
