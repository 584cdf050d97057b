"""Command line entry point for the spectrum autoencoder.

    python cli.py train [--epochs N] [--latent-dim K]
    python cli.py encode checkpoints/epoch020.pt
"""
import argparse
import logging

import torch

from specae.spectra import N_BINS, simulate
from specae.model import SpectrumAutoencoder
from specae.training import train


def cmd_encode(args):
    model = SpectrumAutoencoder(N_BINS, hidden=tuple(args.hidden), latent_dim=args.latent_dim)
    state = torch.load(args.checkpoint)
    model.load_state_dict(state["model"])
    model.eval()
    with torch.no_grad():
        codes = model.encode(torch.from_numpy(simulate(args.n, seed=args.seed)))
    for row in codes:
        print(" ".join(f"{v:+.3f}" for v in row.tolist()))


def build_parser():
    parser = argparse.ArgumentParser(description="spectrum autoencoder")
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--hidden", type=int, nargs="+", default=[48, 24])
    common.add_argument("--latent-dim", type=int, default=6)
    common.add_argument("--seed", type=int, default=0)

    t = sub.add_parser("train", parents=[common])
    t.add_argument("--epochs", type=int, default=20)
    t.add_argument("--batch-size", type=int, default=64)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--n-train", type=int, default=4000)
    t.add_argument("--n-test", type=int, default=1000)
    t.add_argument("--ckpt-dir", default="checkpoints")
    t.set_defaults(func=train)

    e = sub.add_parser("encode", parents=[common])
    e.add_argument("checkpoint")
    e.add_argument("-n", type=int, default=5)
    e.set_defaults(func=cmd_encode)
    return parser


def main():
    args = build_parser().parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    args.func(args)


if __name__ == "__main__":
    main()
