import argparse
import time

import torch
import torch.nn.functional as F

from nets import Discriminator, Generator
from target import sample_target, wasserstein_1d


class GANTrainer:
    def __init__(self, G, D, args):
        self.G, self.D, self.args = G, D, args
        self.opt_d = torch.optim.Adam(D.parameters(), lr=args.lr_d, betas=(0.5, 0.9))
        self.opt_g = torch.optim.Adam(G.parameters(), lr=args.lr_g, betas=(0.5, 0.9))

    def reset_grads(self):
        for opt in (self.opt_d, self.opt_g):
            opt.zero_grad(set_to_none=True)

    def d_step(self, real):
        fake = self.G.sample(len(real)).detach()
        real = real.requires_grad_(True)
        d_real, d_fake = self.D(real), self.D(fake)
        loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        # R1 penalty on real data
        grad, = torch.autograd.grad(d_real.sum(), real, create_graph=True)
        loss = loss + 0.5 * self.args.r1 * grad.pow(2).sum(1).mean()
        self.reset_grads()
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def g_step(self, n):
        fake = self.G.sample(n)
        loss = F.softplus(-self.D(fake)).mean()        # non-saturating generator loss
        loss.backward()
        # this backward also filled D's .grad; clear it so it cannot leak into the next D update
        self.reset_grads()
        self.opt_g.step()
        return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr-d", type=float, default=1e-3)
    ap.add_argument("--lr-g", type=float, default=1e-3)
    ap.add_argument("--d-steps", type=int, default=1)
    ap.add_argument("--r1", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    G, D = Generator(), Discriminator()
    trainer = GANTrainer(G, D, args)
    eval_g = torch.Generator().manual_seed(1234)
    real_eval = sample_target(5000, eval_g)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        for _ in range(args.d_steps):
            d_loss = trainer.d_step(sample_target(args.batch))
        g_loss = trainer.g_step(args.batch)
        if step % 250 == 0:
            with torch.no_grad():
                w1 = wasserstein_1d(G.sample(5000, eval_g), real_eval)
            print(f"step {step:5d} d_loss {d_loss:.4f} g_loss {g_loss:.4f} w1 {w1:.4f} [{time.time() - t0:.1f}s]")
    with torch.no_grad():
        w1 = wasserstein_1d(G.sample(5000, torch.Generator().manual_seed(99)), real_eval)
    print(f"w1={w1:.4f}")


if __name__ == "__main__":
    main()
