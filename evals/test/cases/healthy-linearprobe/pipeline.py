"""Self-supervised pretraining + linear evaluation.

    python pipeline.py

1. pretrain a conv encoder as a masked denoising autoencoder on unlabeled images
2. freeze it and fit a linear classifier on a small labeled set
3. report probe accuracy on the test set (and the same probe on a randomly
   initialised encoder, as a reference)
"""
import argparse

import torch

from networks import ConvDecoder, ConvEncoder
from pretrain import pretrain_encoder
from probe import probe_accuracy, train_probe
from shapes import SHAPES, make_images


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unlabeled", type=int, default=3000)
    ap.add_argument("--labeled", type=int, default=500)
    ap.add_argument("--test", type=int, default=1000)
    ap.add_argument("--code-dim", type=int, default=32)
    ap.add_argument("--pretrain-epochs", type=int, default=6)
    ap.add_argument("--probe-epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    pool, _ = make_images(args.unlabeled, seed=args.seed)          # labels discarded
    train_x, train_y = make_images(args.labeled, seed=args.seed + 1)
    test_x, test_y = make_images(args.test, seed=args.seed + 2)

    random_encoder = ConvEncoder(args.code_dim)
    encoder = ConvEncoder(args.code_dim)
    encoder.load_state_dict(random_encoder.state_dict())
    decoder = ConvDecoder(args.code_dim)

    pretrain_encoder(encoder, decoder, pool, epochs=args.pretrain_epochs, lr=2e-3, batch_size=64,
                     mask_prob=0.25, seed=args.seed)

    results = {}
    for name, enc in (("random-init", random_encoder), ("pretrained", encoder)):
        head = train_probe(enc, args.code_dim, len(SHAPES), (train_x, train_y),
                           epochs=args.probe_epochs, lr=1e-2, batch_size=64, seed=args.seed)
        results[name] = probe_accuracy(enc, head, test_x, test_y)
        print(f"[probe] {name:11s} encoder: test_acc {results[name]:.4f}")

    print(f"linear probe test_acc: {results['pretrained']:.4f}")


if __name__ == "__main__":
    main()
