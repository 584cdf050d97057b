"""Graph helpers (no torch_scatter on the cluster, so these stay dependency-free)."""
import numpy as np
import torch


def scatter_sum(values, index, n_nodes):
    """Sum rows of `values` [E, F] into `n_nodes` buckets given by `index` [E]."""
    out = np.zeros((n_nodes, values.shape[1]), dtype=np.float32)
    np.add.at(out, index.cpu().numpy(), values.detach().cpu().numpy())
    return torch.from_numpy(out).to(values.device)


def collate_graphs(items):
    """Concatenate several crystals into one disjoint graph."""
    species, src, dst, dist, graph_id, ys = [], [], [], [], [], []
    offset = 0
    for g, it in enumerate(items):
        n = len(it["species"])
        species.append(it["species"])
        src.append(it["src"] + offset)
        dst.append(it["dst"] + offset)
        dist.append(it["dist"])
        graph_id.append(np.full(n, g))
        ys.append(it["y"])
        offset += n
    return {
        "species": torch.from_numpy(np.concatenate(species)),
        "src": torch.from_numpy(np.concatenate(src)),
        "dst": torch.from_numpy(np.concatenate(dst)),
        "dist": torch.from_numpy(np.concatenate(dist)).float(),
        "graph": torch.from_numpy(np.concatenate(graph_id)),
        "y": torch.tensor(ys, dtype=torch.float32),
        "n_graphs": len(items),
    }
