"""Data simulation, augmentations and the contrastive model."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ----------------------------------------------------------------------- simulation
def simulate_cells(n_cells, n_genes, n_types, seed):
    rng = np.random.default_rng(seed)
    base = rng.normal(0, 1, n_genes)
    programs = rng.normal(0, 0.6, (n_types, n_genes)) * (rng.random((n_types, n_genes)) < 0.2)
    types = rng.integers(0, n_types, n_cells)
    log_mean = base + programs[types] + rng.normal(0, 0.5, (n_cells, n_genes))
    expr = np.exp(log_mean)
    expr /= expr.sum(1, keepdims=True)
    library = np.exp(rng.normal(np.log(200), 1.2, n_cells))       # >10x spread in depth
    counts = rng.poisson(expr * library[:, None])
    return counts.astype(np.float32), types


def model_input(counts):
    return torch.log1p(counts)


class TwoViews:
    """Random down-sampling (binomial thinning), gene masking and jitter."""

    def __init__(self, keep=(0.2, 1.0), mask_p=0.2, noise=0.1):
        self.keep, self.mask_p, self.noise = keep, mask_p, noise

    def one(self, counts, g):
        k = torch.empty(counts.size(0), 1).uniform_(*self.keep, generator=g)
        thinned = torch.binomial(counts, k.expand_as(counts), generator=g)
        x = model_input(thinned)
        x = x * (torch.rand(x.shape, generator=g) > self.mask_p)
        return x + self.noise * torch.randn(x.shape, generator=g)

    def __call__(self, counts, g):
        return self.one(counts, g), self.one(counts, g)


# ---------------------------------------------------------------------------- model
class FeatureTap:
    """Keeps the outputs of named submodules from the latest forward pass (used for monitoring)."""

    def __init__(self, model, names):
        self.model = model
        self.outputs = {}
        for name, module in model.named_modules():
            if name in names:
                module.register_forward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.outputs[name] = output.detach()
        return hook

    def __call__(self, x):
        self.outputs.clear()
        self.model(x)
        return dict(self.outputs)


class Backbone(nn.Module):
    def __init__(self, n_genes, hidden, emb):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_genes, hidden), nn.LayerNorm(hidden), nn.GELU(),
                                 nn.Linear(hidden, emb))

    def forward(self, x):
        return self.net(x)


class SimCLR(nn.Module):
    def __init__(self, n_genes, hidden=128, emb=32, proj=32):
        super().__init__()
        self.backbone = Backbone(n_genes, hidden, emb)
        self.projector = nn.Sequential(nn.Linear(emb, hidden), nn.GELU(), nn.Linear(hidden, proj))
        self.tap = FeatureTap(self.backbone, {""})   # "" = the backbone module itself

    def embed(self, x):
        return self.tap(x)[""]

    def forward(self, x):
        return self.projector(self.embed(x))


def nt_xent(z1, z2, temperature):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    n = z1.size(0)
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


@torch.no_grad()
def knn_accuracy(train_emb, train_y, test_emb, test_y, k=15):
    a = F.normalize(train_emb, dim=1)
    b = F.normalize(test_emb, dim=1)
    idx = (b @ a.t()).topk(k, dim=1).indices
    votes = torch.zeros(len(b), int(train_y.max()) + 1).scatter_add_(1, train_y[idx], torch.ones(idx.shape))
    return (votes.argmax(1) == test_y).float().mean().item()
