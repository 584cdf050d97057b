import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from events import CLASSES, simulate_events


def teacher_net(d_in, n_out):
    return nn.Sequential(nn.Linear(d_in, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.3),
                         nn.Linear(256, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.3),
                         nn.Linear(256, n_out))


def student_net(d_in, n_out):
    return nn.Sequential(nn.Linear(d_in, 24), nn.ReLU(), nn.Linear(24, n_out))


def fit(model, x, y, epochs, lr, loss_fn, bs=64):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            loss = loss_fn(model(x[idx]), idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teachers", type=int, default=3)
    ap.add_argument("--temperature", type=float, default=3.0)
    ap.add_argument("--alpha", type=float, default=0.7, help="weight of the distillation term")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    x, y = simulate_events(4000, rng)
    mu, sd = x[:3000].mean(0), x[:3000].std(0)
    x = torch.from_numpy((x - mu) / sd)
    y = torch.from_numpy(y)
    xtr, ytr, xva, yva = x[:3000], y[:3000], x[3000:], y[3000:]

    teachers = []
    for k in range(args.teachers):
        torch.manual_seed(1000 * (args.seed + 1) + k)
        t = fit(teacher_net(x.shape[1], len(CLASSES)), xtr, ytr, epochs=12, lr=1e-3,
                loss_fn=lambda out, idx: F.cross_entropy(out, ytr[idx]))
        t.eval()
        t.requires_grad_(False)  # teachers are fixed from here on
        teachers.append(t)
        print(f"teacher {k}: val_acc {accuracy(t, xva, yva):.4f}")

    T = args.temperature
    with torch.no_grad():
        ens_logits = torch.stack([t(xtr) for t in teachers]).mean(0)
        soft_targets = F.softmax(ens_logits / T, dim=1)
        ens_val = torch.stack([t(xva) for t in teachers]).mean(0)
    print(f"ensemble val_acc {(ens_val.argmax(1) == yva).float().mean().item():.4f}")

    def kd_loss(student_logits, idx):
        soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), soft_targets[idx],
                        reduction="batchmean") * T * T
        hard = F.cross_entropy(student_logits, ytr[idx])
        return args.alpha * soft + (1 - args.alpha) * hard

    torch.manual_seed(args.seed)
    student = fit(student_net(x.shape[1], len(CLASSES)), xtr, ytr, epochs=30, lr=3e-3, loss_fn=kd_loss)
    print(f"student_val_acc={accuracy(student, xva, yva):.4f}")


if __name__ == "__main__":
    main()
