"""Pseudo-labelling with weak/strong views (FixMatch-style) on waveform families.

Only `--n-labeled` examples keep their label; the rest of the training pool is
used without labels. Each step: cross-entropy on a labelled batch, plus
cross-entropy of the strong view of unlabelled examples against the model's own
prediction on the weak view, kept only when that prediction is confident.
"""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from augment import strong, weak
from model import WaveNet1D
from waves import CLASSES, make_waves


@dataclass
class Config:
    seed: int = 0
    n_labeled: int = 12
    n_unlabeled: int = 3000
    steps: int = 300
    batch_size: int = 32
    mu: int = 2                # unlabelled batch = mu * batch_size
    lr: float = 0.03
    tau: float = 0.9           # confidence threshold for pseudo-labels
    lambda_u: float = 1.0
    warmup_steps: int = 50     # supervised-only steps before pseudo-labels are used


def pseudo_labels(logits_weak, tau):
    """Hard pseudo-labels from the weak view, and the mask of confident rows."""
    probs = logits_weak.softmax(dim=1)
    conf, labels = probs.max(dim=1)
    return labels, (conf >= tau).float()


def sample(x, n, gen, y=None):
    idx = torch.randint(0, len(x), (n,), generator=gen)
    return x[idx] if y is None else (x[idx], y[idx])


def labeled_subset(y, per_class, rng):
    """Balanced labelled set: `per_class` pool indices of every class."""
    idx = [rng.choice(np.flatnonzero(y == c), per_class, replace=False) for c in range(len(CLASSES))]
    return np.concatenate(idx)


def gather_rows(x, idx):
    # contiguous copy of the selected rows, read in pool order
    return torch.from_numpy(np.ascontiguousarray(x[np.sort(idx)]))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    pred = model(x).argmax(dim=1)
    model.train()
    return (pred == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    for name, field in Config.__dataclass_fields__.items():
        ap.add_argument("--" + name.replace("_", "-"), type=type(field.default), default=field.default)
    cfg = Config(**vars(ap.parse_args()))

    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)

    x_pool, y_pool = make_waves(cfg.n_unlabeled, seed=100 + cfg.seed)
    lab = labeled_subset(y_pool, cfg.n_labeled // len(CLASSES), rng)
    x_lab, y_lab = gather_rows(x_pool, lab), torch.from_numpy(y_pool[lab])
    x_unl = torch.from_numpy(x_pool)              # labels of the pool are never used
    x_test, y_test = map(torch.from_numpy, make_waves(2000, seed=7))

    model = WaveNet1D(len(CLASSES))
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9, nesterov=True, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: np.cos(7 * np.pi * s / (16 * cfg.steps)))

    model.train()
    for step in range(1, cfg.steps + 1):
        xb, yb = sample(x_lab, cfg.batch_size, gen, y_lab)
        sup = F.cross_entropy(model(weak(xb, gen)), yb)
        loss, used = sup, 0.0
        if step > cfg.warmup_steps:
            n_u = cfg.mu * cfg.batch_size
            xu = sample(x_unl, n_u, gen)
            with torch.no_grad():
                targets, mask = pseudo_labels(model(weak(xu, gen)), cfg.tau)
            per_example = F.cross_entropy(model(strong(xu, gen)), targets,
                                          reduction="none")
            loss = sup + cfg.lambda_u * (per_example * mask).mean()
            used = mask.mean().item()

        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(f"step {step:4d}  sup {sup.item():.3f}  total {loss.item():.3f}  "
                  f"pseudo-label rate {used:.2f}  test_acc {accuracy(model, x_test, y_test):.3f}")

    print(f"test_acc={accuracy(model, x_test, y_test):.4f}")


if __name__ == "__main__":
    main()
