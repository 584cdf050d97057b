import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from beams import N_BINS, beam_profiles, sliced_wasserstein

Z_DIM = 8


class Generator(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(Z_DIM, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, N_BINS),
        )

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(N_BINS, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
        )
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.trunk(x)).squeeze(-1)


def mean_features(critic, x):
    """Batch-mean of the critic's penultimate activations, as a fixed target."""
    return critic.trunk(x).mean(0).detach()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    real_pool = beam_profiles(20000, gen)
    held_out = beam_profiles(2000, gen)

    G, D = Generator(), Critic()
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))

    for step in range(1, args.steps + 1):
        real = real_pool[torch.randint(0, len(real_pool), (args.batch,))]
        z = torch.randn(args.batch, Z_DIM)

        # critic update
        fake = G(z)
        d_real, d_fake = D(real), D(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
                  + F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake)))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        # generator update: match the critic's feature statistics on real data
        g_loss = F.mse_loss(mean_features(D, fake), D.trunk(real).mean(0))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()

        if step % 300 == 0:
            with torch.no_grad():
                sample = G(torch.randn(2000, Z_DIM))
            swd = sliced_wasserstein(sample, held_out, gen=torch.Generator().manual_seed(1))
            print(f"step {step} d_loss={d_loss.item():.3f} g_loss={g_loss.item():.4f} swd={swd:.4f}")

    with torch.no_grad():
        sample = G(torch.randn(2000, Z_DIM))
    swd = sliced_wasserstein(sample, held_out, gen=torch.Generator().manual_seed(1))
    print(f"swd={swd:.4f}")


if __name__ == "__main__":
    main()
