import argparse
import tomllib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def sparse_problem(cfg, n, rng, A):
    x = np.zeros((n, cfg["n"]), dtype=np.float32)
    for i in range(n):
        support = rng.choice(cfg["n"], cfg["k"], replace=False)
        x[i, support] = rng.normal(size=cfg["k"]) * rng.choice([0.5, 1.0, 2.0], cfg["k"])
    y = x @ A.T + cfg["noise"] * rng.normal(size=(n, cfg["m"])).astype(np.float32)
    return torch.from_numpy(y.astype(np.float32)), torch.from_numpy(x)


def soft_threshold(v, theta):
    return torch.sign(v) * F.relu(v.abs() - theta)


class LISTA(nn.Module):
    def __init__(self, A, layers, theta0):
        super().__init__()
        m, n = A.shape
        L = float(np.linalg.norm(A, 2) ** 2)
        # measurement operator: known physics, kept fixed
        self.A = nn.Parameter(torch.from_numpy(A), requires_grad=False)
        self.We = nn.Linear(m, n, bias=False)
        self.S = nn.ModuleList([nn.Linear(n, n, bias=False) for _ in range(layers - 1)])
        self.theta = nn.Parameter(torch.full((layers,), theta0))
        with torch.no_grad():
            self.We.weight.copy_(self.A.T / L)
            for s in self.S:
                s.weight.copy_(torch.eye(n) - self.A.T @ self.A / L)
        # learned synthesis dictionary for the auxiliary consistency term
        self.D = nn.Parameter(torch.from_numpy(A).clone())

    def forward(self, y):
        b = self.We(y)
        x = soft_threshold(b, self.theta[0])
        for t, s in enumerate(self.S, start=1):
            x = soft_threshold(b + s(x), self.theta[t])
        return x

    @torch.no_grad()
    def normalize_dictionary(self):
        self.D.div_(self.D.norm(dim=0, keepdim=True).clamp_min(1e-6))


def nmse_db(x_hat, x):
    return 10 * torch.log10(((x_hat - x) ** 2).sum() / (x ** 2).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="lista.toml")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    pc, mc, tc = cfg["problem"], cfg["model"], cfg["train"]
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    A = rng.normal(size=(pc["m"], pc["n"])).astype(np.float32)
    A /= np.linalg.norm(A, axis=0, keepdims=True)
    y, x = sparse_problem(pc, pc["n_train"], rng, A)
    yt, xt = sparse_problem(pc, pc["n_test"], rng, A)

    model = LISTA(A, mc["layers"], mc["theta0"])
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=tc["lr"])
    with torch.no_grad():
        print(f"untrained (ISTA-{mc['layers']}) test_nmse_db={nmse_db(model(yt), xt).item():.2f}")

    for epoch in range(tc["epochs"]):
        model.train()
        perm = torch.randperm(len(y))
        grad_norms = []
        for i in range(0, len(y), tc["batch_size"]):
            idx = perm[i:i + tc["batch_size"]]
            x_hat = model(y[idx])
            loss = F.mse_loss(x_hat, x[idx])
            aux = F.mse_loss(x_hat @ model.D.T, y[idx])
            opt.zero_grad()
            (loss + tc["aux_weight"] * aux).backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), tc["clip_norm"])
            grad_norms.append(gn.item())
            opt.step()
            model.normalize_dictionary()
        model.eval()
        with torch.no_grad():
            db = nmse_db(model(yt), xt).item()
        print(f"epoch {epoch+1} loss={loss.item():.5f} max_grad_norm={max(grad_norms):.3f} test_nmse_db={db:.2f}")
    print(f"test_nmse_db={db:.2f}")


if __name__ == "__main__":
    main()
