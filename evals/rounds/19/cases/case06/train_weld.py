import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from bscan import make


def small_cnn(ch):
    return nn.Sequential(
        nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(),
        nn.Linear(ch, 1),
    )


def focal_with_logits(logits, target, gamma=2.0, alpha=0.75):
    """Focal loss written on logits: log-probabilities via logsigmoid for stability."""
    logp = F.logsigmoid(logits)
    log1mp = F.logsigmoid(-logits)
    p = torch.sigmoid(logits)
    pos = -alpha * (1 - p) ** gamma * logp
    neg = -(1 - alpha) * p ** gamma * log1mp
    return (target * pos + (1 - target) * neg).mean()


def f1(logits, y):
    pred = (logits > 0).float()
    tp = (pred * y).sum()
    return (2 * tp / (pred.sum() + y.sum()).clamp(min=1)).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--distill", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    Xtr, ytr = map(torch.from_numpy, make(2000, seed=a.seed))
    Xva, yva = map(torch.from_numpy, make(600, seed=4040))

    # "teacher": a wider net briefly pre-trained with plain BCE, then frozen
    teacher = small_cnn(24)
    t_opt = torch.optim.Adam(teacher.parameters(), lr=3e-3)
    for s in range(0, len(Xtr), 64):
        t_loss = F.binary_cross_entropy_with_logits(teacher(Xtr[s:s + 64]).squeeze(1), ytr[s:s + 64])
        t_opt.zero_grad()
        t_loss.backward()
        t_opt.step()
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)

    student = small_cnn(12)
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    for ep in range(a.epochs):
        student.train()
        perm = torch.randperm(len(Xtr))
        for s in range(0, len(Xtr), 64):
            j = perm[s:s + 64]
            logits = student(Xtr[j]).squeeze(1)
            with torch.no_grad():
                soft = torch.sigmoid(teacher(Xtr[j]).squeeze(1))
            loss = focal_with_logits(logits, ytr[j]) + a.distill * F.binary_cross_entropy_with_logits(logits, soft)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(student.parameters(), 10.0)
            opt.step()
        student.eval()
        with torch.no_grad():
            score = f1(student(Xva).squeeze(1), yva)
        print(f"epoch {ep + 1}: loss={loss.item():.4f} val_f1={score:.3f}")
    print(f"val_f1={score:.4f}")


if __name__ == "__main__":
    main()
