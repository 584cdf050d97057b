import argparse
import copy
import json
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from sky import CLASSES, survey


def mlp(d_in, hidden, n_out, depth=2, dropout=0.1):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout)]
        d = hidden
    return nn.Sequential(*layers, nn.Linear(d, n_out))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def train_teacher(teacher, loader, cfg):
    opt = torch.optim.Adam(teacher.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        teacher.train()
        for x, y in loader:
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return teacher


def kd_loss(student_logits, teacher_logits, y, T, alpha):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * (T * T)
    hard = F.cross_entropy(student_logits, y)
    return alpha * soft + (1 - alpha) * hard


@torch.no_grad()
def ema_update(ema, model, decay):
    for p_ema, p in zip(ema.parameters(), model.parameters()):
        p_ema.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for b_ema, b in zip(ema.buffers(), model.buffers()):
        b_ema.copy_(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="distill.json")
    cfg = json.load(open(ap.parse_args().config))
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    rng = np.random.default_rng(cfg["seed"])

    x_tr, y_tr = survey(cfg["n_train"], rng)
    x_te, y_te = survey(cfg["n_test"], rng)
    mu, sd = x_tr.mean(0), x_tr.std(0)
    x_tr, x_te = torch.from_numpy((x_tr - mu) / sd), torch.from_numpy((x_te - mu) / sd)
    y_tr, y_te = torch.from_numpy(y_tr), torch.from_numpy(y_te)
    g = torch.Generator().manual_seed(cfg["seed"])
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=cfg["batch_size"], shuffle=True, generator=g)
    t0 = time.time()

    # ---- stage 1: teacher
    teacher = train_teacher(mlp(x_tr.shape[1], cfg["teacher"]["hidden"], len(CLASSES)), loader, cfg["teacher"])
    print(f"teacher_acc={accuracy(teacher, x_te, y_te):.4f} [{time.time() - t0:.1f}s]")

    # ---- stage 2: student distilled from the frozen teacher
    teacher.eval()
    teacher.requires_grad_(False)
    student = mlp(x_tr.shape[1], cfg["student"]["hidden"], len(CLASSES))
    ema = copy.deepcopy(student).requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=cfg["student"]["lr"])
    for epoch in range(1, cfg["student"]["epochs"] + 1):
        student.train()
        running = []
        for x, y in loader:
            with torch.no_grad():
                t_logits = teacher(x)
            loss = kd_loss(student(x), t_logits, y, cfg["temperature"], cfg["alpha"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, student, cfg["ema_decay"])
            running.append(loss.item())
        print(f"epoch {epoch:2d} kd_loss {np.mean(running):.4f} student_acc {accuracy(student, x_te, y_te):.4f} "
              f"ema_acc {accuracy(ema, x_te, y_te):.4f} [{time.time() - t0:.1f}s]")
    print(f"student_ema_acc={accuracy(ema, x_te, y_te):.4f}")


if __name__ == "__main__":
    main()
