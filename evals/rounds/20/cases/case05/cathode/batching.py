import numpy as np
import torch


def collate(cells):
    """Concatenate several cells into one disconnected graph."""
    z, src, dst, dist, graph, y = [], [], [], [], [], []
    offset = 0
    for g, c in enumerate(cells):
        z.append(c["z"]); dist.append(c["dist"]); y.append(c["y"])
        src.append(c["src"] + offset); dst.append(c["dst"] + offset)
        graph.append(np.full(len(c["z"]), g))
        offset += len(c["z"])
    return dict(z=torch.from_numpy(np.concatenate(z)), src=torch.from_numpy(np.concatenate(src)),
                dst=torch.from_numpy(np.concatenate(dst)), dist=torch.from_numpy(np.concatenate(dist)),
                graph=torch.from_numpy(np.concatenate(graph)), n_graphs=len(cells),
                y=torch.tensor(np.array(y)))
