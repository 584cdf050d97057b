import argparse

import torch
import torch.nn.functional as F

from toygan.data import sample_ring
from toygan.metrics import mode_stats, rbf_mmd
from toygan.nets import Discriminator, Generator


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=1500)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--z-dim", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    data_gen = torch.Generator().manual_seed(args.seed + 1)
    G, D = Generator(args.z_dim), Discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=args.lr, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=args.lr, betas=(0.5, 0.999))

    b = args.batch_size
    real_label = torch.full((b,), 1.0)
    fake_label = torch.zeros(b)

    for it in range(1, args.iters + 1):
        # discriminator: real -> 1, fake -> 0
        real = sample_ring(b, data_gen)
        z = torch.randn(b, args.z_dim)
        fake = G(z)
        d_real = D(real)
        d_fake = D(fake.detach())
        loss_d = F.binary_cross_entropy_with_logits(d_real, real_label) + \
            F.binary_cross_entropy_with_logits(d_fake, fake_label)
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()

        # generator: make D call the fakes real
        loss_g = F.binary_cross_entropy_with_logits(D(fake), torch.ones(b))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()

        if it % 500 == 0:
            print(f"iter {it:5d}  loss_d {loss_d.item():.4f}  loss_g {loss_g.item():.4f}")

    G.eval()
    with torch.no_grad():
        samples = G(torch.randn(2000, args.z_dim))
    reference = sample_ring(2000, torch.Generator().manual_seed(999))
    modes, hq = mode_stats(samples)
    print(f"modes covered: {modes}/8 | high-quality: {hq:.3f} | mmd: {rbf_mmd(samples, reference):.4f}")


if __name__ == "__main__":
    main()
