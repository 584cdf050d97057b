"""Two-task continual learning with an EWC penalty."""
import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_task(rng, dim, classes, n):
    proj = rng.normal(size=(dim, 8))
    centers = rng.normal(scale=1.6, size=(classes, 8))

    def draw(m):
        x = rng.normal(size=(m, dim)).astype(np.float32)
        z = np.tanh(x @ proj / np.sqrt(dim)) * 3
        y = np.argmin(((z[:, None, :] - centers[None]) ** 2).sum(-1), axis=1)
        return torch.from_numpy(x), torch.from_numpy(y)

    return draw(n), draw(n // 3)


class MultiHead(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(hidden, classes) for _ in range(2)])

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


class EWC:
    """Diagonal Laplace approximation around the task-A optimum."""

    def __init__(self, model, data, task, n_batches, batch_size):
        self.params = {n: p.detach().clone() for n, p in model.trunk.named_parameters()}
        self.fisher = {n: torch.zeros_like(p) for n, p in model.trunk.named_parameters()}
        x, _ = data
        model.eval()
        for b in range(n_batches):
            xb = x[b * batch_size:(b + 1) * batch_size]
            logp = F.log_softmax(model(xb, task), dim=1)
            # sample labels from the model: the "true" Fisher, not the empirical one
            yb = torch.multinomial(logp.exp(), 1).squeeze(1)
            model.zero_grad()
            F.nll_loss(logp, yb).backward()
            for n, p in model.trunk.named_parameters():
                self.fisher[n] += p.grad.detach() ** 2 / n_batches
        model.zero_grad()

    def log_prior(self, model):
        """log N(theta | theta_A, F^-1) up to a constant."""
        total = 0.0
        for n, p in model.trunk.named_parameters():
            total = total + (self.fisher[n] * (p - self.params[n]) ** 2).sum()
        return -0.5 * total


def fit(model, data, task, epochs, cfg, opt, ewc=None):
    x, y = data
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = F.cross_entropy(model(x[idx], task), y[idx])
            if ewc is not None:
                loss = loss + cfg["ewc_lambda"] * ewc.log_prior(model)
            opt.zero_grad()
            loss.backward()
            opt.step()


@torch.no_grad()
def accuracy(model, data, task):
    model.eval()
    x, y = data
    return (model(x, task).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="ewc.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    task_a = make_task(rng, cfg["dim"], cfg["classes"], cfg["n_train"])
    task_b = make_task(rng, cfg["dim"], cfg["classes"], cfg["n_train"])
    model = MultiHead(cfg["dim"], cfg["hidden"], cfg["classes"])

    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    fit(model, task_a[0], 0, cfg["epochs_a"], cfg, opt)
    print(f"after A: acc_a={accuracy(model, task_a[1], 0):.4f}")

    ewc = EWC(model, task_a[0], 0, cfg["fisher_batches"], cfg["batch_size"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    fit(model, task_b[0], 1, cfg["epochs_b"], cfg, opt, ewc=ewc)
    acc_a = accuracy(model, task_a[1], 0)
    acc_b = accuracy(model, task_b[1], 1)
    print(f"after B: acc_a={acc_a:.4f} acc_b={acc_b:.4f}")
    print(f"avg_acc={(acc_a + acc_b) / 2:.4f}")


if __name__ == "__main__":
    main()
