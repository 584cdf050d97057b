import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from glass import scale, simulator, workshop


def mlp():
    return nn.Sequential(nn.Linear(6, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))


def fit_teacher(cfg, seed):
    X, y = simulator(cfg["n_sim"], seed)
    X, y = torch.from_numpy(scale(X)), torch.tensor(y, dtype=torch.float32)
    net = mlp()
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    for _ in range(cfg["teacher_epochs"]):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 64):
            j = perm[i:i + 64]
            loss = F.mse_loss(net(X[j]).squeeze(1), y[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"teacher sim mse {loss.item():.4f}")
    net.eval()
    for p in net.parameters():
        p.requires_grad_(False)
    return net


class Validator:
    """Callback-style evaluation; puts the student back in train mode afterwards."""

    def __init__(self, X, y):
        self.X, self.y = X, y

    def __call__(self, model):
        model.eval()
        with torch.no_grad():
            mae = (model(self.X).squeeze(1) - self.y).abs().mean().item()
        model.train()
        return mae


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="run.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    seed = cfg["seed"] if a.seed is None else a.seed
    torch.manual_seed(seed)

    teacher = fit_teacher(cfg, seed)
    Xm, ym = workshop(cfg["n_measured"], seed + 1)
    Xt, yt = workshop(cfg["n_test"], seed + 2)
    Xm, ym = torch.from_numpy(scale(Xm)), torch.tensor(ym, dtype=torch.float32)
    Xt, yt = torch.from_numpy(scale(Xt)), torch.tensor(yt, dtype=torch.float32)
    validate = Validator(Xt, yt)

    student = mlp()
    student.load_state_dict(teacher.state_dict())   # warm start from the simulator fit
    for p in student.parameters():
        p.requires_grad_(True)
    opt = torch.optim.Adam(student.parameters(), lr=cfg["lr"])
    student.train()
    for epoch in range(cfg["student_epochs"]):
        perm = torch.randperm(len(Xm))
        for i in range(0, len(Xm), 32):
            j = perm[i:i + 32]
            pred = student(Xm[j]).squeeze(1)
            with torch.no_grad():
                target_sim = teacher(Xm[j]).squeeze(1)
            # stay close to the physics where the measurements do not say otherwise
            loss = F.mse_loss(pred, ym[j]) + cfg["consistency"] * F.mse_loss(pred, target_sim.detach()) * 0.1
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(student.parameters(), cfg["clip"])
            opt.step()
        if (epoch + 1) % 20 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} test_mae_mm {validate(student):.4f}")
    print(f"test_mae_mm={validate(student):.4f}")


if __name__ == "__main__":
    main()
