import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, T_STEPS, N_CLASSES = 40, 60, 4


class FastSigmoidSpike(torch.autograd.Function):
    """Heaviside forward, fast-sigmoid derivative backward."""
    scale = 10.0

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (FastSigmoidSpike.scale * v.abs() + 1.0) ** 2


spike = FastSigmoidSpike.apply


def spike_trains(n, rng):
    """(n, T, N_IN) binary spikes and labels."""
    y = rng.integers(0, N_CLASSES, n)
    speed = np.array([0.5, 1.0, -0.5, -1.0])[y]
    start = np.where(speed > 0, 0.0, N_IN - 1.0) + rng.normal(0, 2, n)
    t = np.arange(T_STEPS)
    pos = start[:, None] + speed[:, None] * t[None] * (N_IN / T_STEPS) * 1.2
    aff = np.arange(N_IN)
    rate = 0.35 * np.exp(-0.5 * ((aff[None, None] - pos[..., None]) / 2.5) ** 2) + 0.03
    s = (rng.random(rate.shape) < rate).astype(np.float32)
    return torch.from_numpy(s), torch.from_numpy(y)


class LIFNet(nn.Module):
    def __init__(self, hidden=96, beta=0.9):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, hidden)
        self.fc2 = nn.Linear(hidden, N_CLASSES)
        self.beta = beta

    def forward(self, s):
        B, T, _ = s.shape
        v1 = torch.zeros(B, self.fc1.out_features)
        v2 = torch.zeros(B, N_CLASSES)
        counts = torch.zeros(B, N_CLASSES)
        for t in range(T):
            v1 = self.beta * v1 + self.fc1(s[:, t])
            z1 = spike(v1 - 1.0)
            # reset by subtraction; the reset path is not differentiated (standard practice)
            v1 = v1 - z1.detach()
            v2 = self.beta * v2 + self.fc2(z1)
            z2 = spike(v2 - 1.0)
            v2 = v2 - z2.detach()
            counts = counts + z2
        return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    x, y = spike_trains(1500, rng)
    xt, yt = spike_trains(500, rng)

    net = LIFNet()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(x))
        rate_log = []
        for i in range(0, len(x), args.batch_size):
            idx = perm[i:i + args.batch_size]
            counts = net(x[idx])
            loss = nll(F.log_softmax(counts, dim=1), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            rate_log.append(counts.mean().item() / T_STEPS)
        net.eval()
        with torch.no_grad():
            acc = (net(xt).argmax(1) == yt).float().mean().item()
        print(f"epoch {epoch+1} loss={loss.item():.4f} out_rate={np.mean(rate_log):.3f} test_acc={acc:.4f}")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
