import argparse
import copy
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

UNLABELLED = -1


def sensor_data(n, rng, centers, mix):
    y = rng.integers(0, len(centers), n)
    conc = rng.lognormal(0, 0.4, n)[:, None]
    resp = np.tanh(conc * centers[y] @ mix) + 0.25 * rng.normal(size=(n, mix.shape[1]))
    return resp.astype(np.float32), y


def net(d_in, n_cls, hidden=128, p=0.3):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(p),
                         nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p), nn.Linear(hidden, n_cls))


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)
    for t, s in zip(teacher.buffers(), student.buffers()):
        t.copy_(s)


def sigmoid_rampup(epoch, length):
    if length == 0:
        return 1.0
    phase = 1.0 - np.clip(epoch, 0.0, length) / length
    return float(np.exp(-5.0 * phase * phase))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--labels-per-class", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--cons-weight", type=float, default=10.0)
    ap.add_argument("--rampup", type=int, default=5)
    ap.add_argument("--noise", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(5)
    C, D = 5, 16
    centers, mix = rng.normal(size=(C, 8)), rng.normal(size=(8, D)) / np.sqrt(8)
    x, y = sensor_data(6000, rng, centers, mix)
    xte, yte = sensor_data(2000, rng, centers, mix)

    # keep a few labels per class, mark the rest as unlabelled
    lab_rng = np.random.default_rng(args.seed)
    y_train = np.full_like(y, UNLABELLED)
    for c in range(C):
        idx = lab_rng.choice(np.flatnonzero(y == c), args.labels_per_class, replace=False)
        y_train[idx] = c
    x, y_train = torch.from_numpy(x), torch.from_numpy(y_train)
    xte, yte = torch.from_numpy(xte), torch.from_numpy(yte)
    labelled = torch.nonzero(y_train != UNLABELLED).squeeze(1)

    student = net(D, C)
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.requires_grad_(False)   # the teacher only moves through the EMA
    opt = torch.optim.Adam(student.parameters(), lr=args.lr)

    t0 = time.time()
    for epoch in range(args.epochs):
        student.train()
        teacher.train()
        w = args.cons_weight * sigmoid_rampup(epoch, args.rampup)
        perm = torch.randperm(len(x))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            # every batch also carries a few labelled rows
            lb = labelled[torch.randint(len(labelled), (16,))]
            b = torch.cat([b, lb])
            xb, yb = x[b], y_train[b]
            s_logits = student(xb + args.noise * torch.randn_like(xb))
            with torch.no_grad():
                t_logits = teacher(xb + args.noise * torch.randn_like(xb))
            class_loss = F.cross_entropy(s_logits, yb, ignore_index=UNLABELLED)
            cons_loss = F.mse_loss(F.softmax(s_logits, -1), F.softmax(t_logits, -1))
            loss = class_loss + w * cons_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(teacher, student, args.ema)
        teacher.eval()
        student.eval()
        with torch.no_grad():
            t_acc = (teacher(xte).argmax(1) == yte).float().mean().item()
            s_acc = (student(xte).argmax(1) == yte).float().mean().item()
        print(f"epoch {epoch:2d}  class {class_loss.item():.4f}  cons {cons_loss.item():.5f}  w {w:.2f}  "
              f"student {s_acc:.4f}  teacher {t_acc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC teacher_test_acc={t_acc:.4f}")


if __name__ == "__main__":
    main()
