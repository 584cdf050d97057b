import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from nets import student_net, teacher_net
from radio import MODULATIONS, make_bursts


def accuracy(model, x, y):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train(was_training)
    return acc


def train_teacher(model, loader, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def kd_loss(student_logits, teacher_logits, y, T, alpha):
    """alpha * T^2 * KL(teacher_T || student_T) + (1 - alpha) * NLL(student)."""
    log_p_s = F.log_softmax(student_logits / T, dim=1)
    log_p_t = F.log_softmax(teacher_logits / T, dim=1)
    soft = F.kl_div(log_p_s, log_p_t, reduction="batchmean", log_target=True) * (T * T)
    hard = F.nll_loss(F.log_softmax(student_logits, dim=1), y)
    return alpha * soft + (1 - alpha) * hard, soft.item(), hard.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher-epochs", type=int, default=8)
    ap.add_argument("--student-epochs", type=int, default=12)
    ap.add_argument("--temperature", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x_tr, y_tr = make_bursts(8000, seed=args.seed)
    x_te, y_te = make_bursts(2000, seed=args.seed + 1)
    x_tr, y_tr, x_te, y_te = map(torch.from_numpy, (x_tr, y_tr, x_te, y_te))
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)
    n_cls = len(MODULATIONS)

    teacher = train_teacher(teacher_net(x_tr.shape[1], n_cls), loader, args.teacher_epochs, 1e-3)
    teacher.eval()
    teacher.requires_grad_(False)          # frozen from here on
    print(f"teacher test_acc={accuracy(teacher, x_te, y_te):.4f}")

    student = student_net(x_tr.shape[1], n_cls)
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    for epoch in range(1, args.student_epochs + 1):
        soft_sum = hard_sum = 0.0
        for xb, yb in loader:
            with torch.no_grad():
                t_logits = teacher(xb)
            loss, soft, hard = kd_loss(student(xb), t_logits, yb, args.temperature, args.alpha)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(student.parameters(), max_norm=20.0)
            opt.step()
            soft_sum += soft
            hard_sum += hard
        if epoch % 3 == 0:
            print(f"student epoch {epoch:2d}  kd={soft_sum / len(loader):.4f}  nll={hard_sum / len(loader):.4f}  "
                  f"test_acc={accuracy(student, x_te, y_te):.4f}")

    print(f"METRIC student_test_acc={accuracy(student, x_te, y_te):.4f}")


if __name__ == "__main__":
    main()
