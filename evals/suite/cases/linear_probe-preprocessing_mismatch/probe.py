"""Pretrain an encoder on cluster ids, then freeze it and fit a linear probe for a new label.

Phase 1 (pretrain): encoder + 6-way head, trained end to end.
Phase 2 (probe): encoder frozen on purpose (requires_grad off, eval mode so BatchNorm
keeps its running statistics); only the new 2-way probe is optimized, on features
computed under no_grad.
"""
import random

import numpy as np
import torch
from torch import nn

N_CLUSTERS = 6
IN_DIM = 10
torch.set_num_threads(1)


def sample(n, rng):
    centers = np.random.default_rng(99).normal(0, 1.0, size=(N_CLUSTERS, IN_DIM))
    cluster = rng.integers(0, N_CLUSTERS, size=n)
    x = centers[cluster] + rng.normal(0, 0.6, size=(n, IN_DIM))
    parity = cluster % 2  # the probe's target: is the cluster id odd?
    return (torch.tensor(x, dtype=torch.float32),
            torch.tensor(cluster, dtype=torch.long),
            torch.tensor(parity, dtype=torch.long))


def batches(n, size, gen):
    order = torch.randperm(n, generator=gen)
    return [order[i:i + size] for i in range(0, n, size)]


def build_encoder():
    return nn.Sequential(
        nn.Linear(IN_DIM, 32),
        nn.BatchNorm1d(32),
        nn.ReLU(),
        nn.Linear(32, 16),
        nn.ReLU(),
    )


def pretrain(encoder, x, cluster, gen, epochs=6):
    head = nn.Linear(16, N_CLUSTERS)
    model = nn.Sequential(encoder, head)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for idx in batches(len(x), 64, gen):
            opt.zero_grad()
            loss = loss_fn(model(x[idx]), cluster[idx])
            loss.backward()
            opt.step()
        print(f"pretrain epoch {epoch}: loss {loss.item():.3f}")


def fit_probe(encoder, x, y, gen, epochs=8):
    encoder.requires_grad_(False)
    encoder.eval()
    probe = nn.Linear(16, 2)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        probe.train()
        for idx in batches(len(x), 64, gen):
            with torch.no_grad():
                feats = encoder(x[idx])
            loss = loss_fn(probe(feats), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"probe epoch {epoch}: loss {loss.item():.3f}")
    return probe


def evaluate(encoder, probe, x, y):
    encoder.eval()
    probe.eval()
    with torch.inference_mode():
        pred = probe(encoder(x / x.abs().max())).argmax(dim=1)
    return (pred == y).float().mean().item()


if __name__ == "__main__":
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)

    x_tr, cluster_tr, parity_tr = sample(1500, np.random.default_rng(1))
    x_te, _, parity_te = sample(500, np.random.default_rng(2))

    encoder = build_encoder()
    pretrain(encoder, x_tr, cluster_tr, gen)
    probe = fit_probe(encoder, x_tr, parity_tr, gen)
    acc = evaluate(encoder, probe, x_te, parity_te)
    print(f"probe accuracy on held-out parity labels: {acc:.4f}")
    print(f"METRIC val_acc={acc:.4f}")
