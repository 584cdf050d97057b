"""Throat-mic hum detector trained with plain SGD + momentum."""
import argparse
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def sessions(n_sessions, per, rng):
    xs, ys = [], []
    t = np.arange(200) / 800.0
    for s in range(n_sessions):
        gain = rng.uniform(0.2, 5.0)
        y = rng.random(per) < 0.5
        f0 = rng.uniform(90, 180, size=(per, 1))
        w = rng.standard_normal((per, 200)) * 0.6
        w += y[:, None] * np.sin(2 * np.pi * f0 * t) * rng.uniform(0.4, 1.0, size=(per, 1))
        w *= gain
        w /= np.sqrt((w ** 2).mean())  # per-session RMS scaling
        xs.append(w)
        ys.append(y)
    return torch.tensor(np.concatenate(xs), dtype=torch.float32), torch.tensor(np.concatenate(ys), dtype=torch.float32)


class HumNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 16, 15, stride=2)
        self.conv2 = nn.Conv1d(16, 16, 9, stride=2)
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        h = F.relu(self.conv(x.unsqueeze(1)))
        h = F.relu(self.conv2(h))
        return self.fc(h.abs().mean(-1)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1200)
    ap.add_argument("--log_every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    xtr, ytr = sessions(40, 60, rng)
    xva, yva = sessions(10, 60, rng)
    net = HumNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)
    running = 0.0
    for step in range(args.steps):
        b = torch.randint(0, len(xtr), (32,))
        loss = F.binary_cross_entropy_with_logits(net(xtr[b]), ytr[b])
        loss.backward()
        opt.step()
        running += loss.item()
        if (step + 1) % args.log_every == 0:
            print(f"step {step + 1} loss {running / args.log_every:.4f}")
            running = 0.0
            opt.zero_grad()
    with torch.no_grad():
        acc = ((net(xva) > 0).float() == yva).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
