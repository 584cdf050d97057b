"""Distil a wide denoiser into a small one.

Stage 1 trains the teacher on (noisy, clean) pairs. Stage 2 trains the student on
the clean target plus the frozen teacher's output, and keeps an EMA copy of the
student that also provides a consistency target. The EMA student is evaluated.
"""
import argparse
import copy

import torch
import torch.nn.functional as F

from nets import ConvDenoiser
from signals import add_noise, clean_signals

SIGMA = 0.5


def fit_teacher(teacher, clean, epochs, batch_size, lr, gen):
    opt = torch.optim.Adam(teacher.parameters(), lr=lr)
    for epoch in range(epochs):
        perm = torch.randperm(len(clean), generator=gen)
        for i in range(0, len(perm), batch_size):
            target = clean[perm[i:i + batch_size]]
            loss = F.mse_loss(teacher(add_noise(target, SIGMA, gen)), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"[teacher] epoch {epoch + 1} mse {loss.item():.4f}")
    return teacher


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)


def fit_student(student, teacher, clean, args, gen):
    teacher.eval()
    teacher.requires_grad_(False)
    ema = copy.deepcopy(student)
    opt = torch.optim.Adam(student.parameters(), lr=args.lr)
    for epoch in range(args.student_epochs):
        perm = torch.randperm(len(clean), generator=gen)
        for i in range(0, len(perm), args.batch_size):
            target = clean[perm[i:i + args.batch_size]]
            noisy = add_noise(target, SIGMA, gen)
            with torch.no_grad():
                soft_target = teacher(noisy)
            out = student(noisy)
            consistency_target = ema(add_noise(target, SIGMA, gen)).detach()
            loss = (F.mse_loss(out, target)
                    + args.distill_weight * F.mse_loss(out, soft_target)
                    + args.consistency_weight * F.mse_loss(out, consistency_target))
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, student, args.ema_decay)
        print(f"[student] epoch {epoch + 1} loss {loss.item():.4f}")
    return ema


@torch.no_grad()
def test_mse(model, clean_test, noisy_test):
    model.eval()
    return F.mse_loss(model(noisy_test), clean_test).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--teacher-epochs", type=int, default=3)
    ap.add_argument("--student-epochs", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--distill-weight", type=float, default=0.5)
    ap.add_argument("--consistency-weight", type=float, default=0.1)
    ap.add_argument("--ema-decay", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    clean_train = clean_signals(2500, gen)
    clean_test = clean_signals(500, gen)
    noisy_test = add_noise(clean_test, SIGMA, gen)

    teacher = fit_teacher(ConvDenoiser(width=48, depth=5), clean_train, args.teacher_epochs,
                          args.batch_size, args.lr, gen)
    student_ema = fit_student(ConvDenoiser(width=16, depth=4), teacher, clean_train, args, gen)

    print(f"noisy input mse {F.mse_loss(noisy_test, clean_test).item():.4f}")
    print(f"teacher test mse {test_mse(teacher, clean_test, noisy_test):.4f}")
    print(f"student (ema) test mse {test_mse(student_ema, clean_test, noisy_test):.4f}")


if __name__ == "__main__":
    main()
