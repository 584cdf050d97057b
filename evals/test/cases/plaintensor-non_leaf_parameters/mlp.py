import math

import torch


def init_params(layer_sizes, seed=0):
    g = torch.Generator().manual_seed(seed)
    params = {}
    for i, (n_in, n_out) in enumerate(zip(layer_sizes[:-1], layer_sizes[1:])):
        bound = math.sqrt(6.0 / (n_in + n_out))
        params[f"W{i}"] = ((torch.rand(n_in, n_out, generator=g) * 2 - 1) * bound).requires_grad_()
        params[f"b{i}"] = torch.zeros(n_out, requires_grad=True)
    return params


def predict(x, weights):
    n_layers = len(weights) // 2
    h = x
    for i in range(n_layers):
        h = h @ weights[f"W{i}"] + weights[f"b{i}"]
        if i < n_layers - 1:
            h = torch.tanh(h)
    return h.squeeze(-1)


def export_weights(weights):
    return {k: v.detach().cpu().float().numpy().tolist() for k, v in weights.items()}
