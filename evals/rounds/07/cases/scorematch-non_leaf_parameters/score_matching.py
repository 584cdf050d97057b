import argparse
import math
import time

import numpy as np
import torch

MIX = {"w": [0.3, 0.5, 0.2], "mu": [-3.0, 0.5, 3.5], "sigma": [0.6, 0.9, 0.4]}


def sample_mixture(n, gen):
    w = torch.tensor(MIX["w"])
    k = torch.multinomial(w, n, replacement=True, generator=gen)
    mu, sd = torch.tensor(MIX["mu"])[k], torch.tensor(MIX["sigma"])[k]
    return (mu + sd * torch.randn(n, generator=gen)).unsqueeze(1)


def true_score(x):
    x = x.squeeze(1)
    w, mu, sd = (torch.tensor(MIX[k]) for k in ("w", "mu", "sigma"))
    logc = torch.log(w) - torch.log(sd) - 0.5 * ((x[:, None] - mu) / sd) ** 2
    r = torch.softmax(logc, dim=1)
    return (r * (-(x[:, None] - mu) / sd ** 2)).sum(1, keepdim=True)


class ScoreMLP:
    """s(x) = W3 tanh(W2 tanh(W1 x + b1) + b2) + b3, with weights kept as plain tensors."""

    def __init__(self, hidden=64, seed=0):
        rng = np.random.default_rng(seed)
        sizes = [(1, hidden), (hidden, hidden), (hidden, 1)]
        self.weights, self.biases = [], []
        for fan_in, fan_out in sizes:
            init = rng.normal(size=(fan_in, fan_out)) / np.sqrt(fan_in)   # Xavier-style scale
            self.weights.append(torch.tensor(init, requires_grad=True).float())
            self.biases.append(torch.zeros(fan_out, requires_grad=True))

    def parameters(self):
        return [t for pair in zip(self.weights, self.biases) for t in pair]

    def __call__(self, x):
        h = x
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = torch.tanh(h)
        return h


class MomentumSGD:
    """Plain heavy-ball SGD over a list of tensors."""

    def __init__(self, params, lr, momentum=0.9):
        self.params, self.lr, self.momentum = list(params), lr, momentum
        self.buf = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for k, p in enumerate(self.params):
            if p.grad is None:  # parameter not used in this loss
                continue
            self.buf[k] = p.grad.clone() if self.buf[k] is None else self.momentum * self.buf[k] + p.grad
            p.sub_(self.lr * self.buf[k])


def score_matching_loss(model, x):
    x = x.requires_grad_(True)
    s = model(x)
    ds = torch.autograd.grad(s.sum(), x, create_graph=True)[0]
    return (ds + 0.5 * s ** 2).mean()


@torch.no_grad()
def langevin(model, n, steps, gen, sigmas=(1.0, 0.5, 0.2, 0.1)):
    x = 6 * torch.rand(n, 1, generator=gen) - 3
    for eps in sigmas:
        step = 0.1 * eps ** 2
        for _ in range(steps):
            x = x + 0.5 * step * model(x) + math.sqrt(step) * torch.randn(n, 1, generator=gen)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)

    data = sample_mixture(20000, gen)
    held_out = sample_mixture(4000, torch.Generator().manual_seed(777))
    model = ScoreMLP(args.hidden, seed=args.seed)
    opt = MomentumSGD(model.parameters(), lr=args.lr, momentum=0.9)

    t0 = time.time()
    for step in range(args.steps + 1):
        idx = torch.randint(0, len(data), (args.batch_size,), generator=gen)
        loss = score_matching_loss(model, data[idx].clone())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 300 == 0:
            print(f"step {step:5d}  sm_loss {loss.item():+.4f}")

    samples = langevin(model, 2000, 60, gen)
    print(f"langevin samples: mean {samples.mean():.3f} std {samples.std():.3f}  "
          f"(data mean {data.mean():.3f} std {data.std():.3f})")
    with torch.no_grad():
        fisher = ((model(held_out) - true_score(held_out)) ** 2).mean().item()
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC fisher_div={fisher:.4f}")


if __name__ == "__main__":
    main()
