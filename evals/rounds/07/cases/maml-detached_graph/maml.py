import argparse
import math
import time
from collections import OrderedDict

import numpy as np
import torch
import torch.nn.functional as F


# ------------------------------------------------------------------ tasks
class SineTasks:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def sample(self, k_shot, k_query):
        amp = self.rng.uniform(0.1, 5.0)
        phase = self.rng.uniform(0, math.pi)
        x = self.rng.uniform(-5, 5, size=(k_shot + k_query, 1)).astype(np.float32)
        y = (amp * np.sin(x - phase)).astype(np.float32)
        x, y = torch.from_numpy(x), torch.from_numpy(y)
        return (x[:k_shot], y[:k_shot]), (x[k_shot:], y[k_shot:])


# ------------------------------------------------------------------ model
def init_params(sizes=(1, 40, 40, 1)):
    params = OrderedDict()
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        w = torch.empty(b, a)
        torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5))
        params[f"w{i}"] = w.requires_grad_()
        params[f"b{i}"] = torch.zeros(b, requires_grad=True)
    return params


def forward(params, x):
    n = len(params) // 2
    for i in range(n):
        x = F.linear(x, params[f"w{i}"], params[f"b{i}"])
        if i < n - 1:
            x = F.relu(x)
    return x


def fast_weights_from(params):
    """Working copy of the weights for one task's inner loop, so that the inner
    updates never write into the meta-parameters."""
    return OrderedDict((k, v.clone().detach().requires_grad_(True)) for k, v in params.items())


def adapt(params, support, inner_lr, steps, create_graph):
    fast = fast_weights_from(params)
    xs, ys = support
    for _ in range(steps):
        loss = F.mse_loss(forward(fast, xs), ys)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=create_graph)
        fast = OrderedDict((k, w - inner_lr * g) for (k, w), g in zip(fast.items(), grads))
    return fast


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meta-iters", type=int, default=1500)
    ap.add_argument("--meta-batch", type=int, default=8)
    ap.add_argument("--inner-steps", type=int, default=1)
    ap.add_argument("--inner-lr", type=float, default=0.01)
    ap.add_argument("--outer-lr", type=float, default=3e-3)
    ap.add_argument("--k-shot", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    tasks = SineTasks(args.seed)
    params = init_params()
    meta_opt = torch.optim.Adam(params.values(), lr=args.outer_lr)

    t0 = time.time()
    for it in range(args.meta_iters):
        meta_loss = 0.0
        for _ in range(args.meta_batch):
            support, query = tasks.sample(args.k_shot, args.k_shot)
            fast = adapt(params, support, args.inner_lr, args.inner_steps, create_graph=True)
            meta_loss = meta_loss + F.mse_loss(forward(fast, query[0]), query[1])
        meta_loss = meta_loss / args.meta_batch
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        if it % 100 == 0:
            print(f"iter {it:4d}  meta_loss {meta_loss.item():.4f}")

    test_tasks = SineTasks(10_000)
    errs = []
    for _ in range(200):
        support, query = test_tasks.sample(args.k_shot, 50)
        fast = adapt(params, support, args.inner_lr, 5, create_graph=False)
        with torch.no_grad():
            errs.append(F.mse_loss(forward(fast, query[0]), query[1]).item())
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC post_adapt_mse={float(np.mean(errs)):.4f}")


if __name__ == "__main__":
    main()
