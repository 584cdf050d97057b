import numpy as np
import torch

N_OBJ = 6
QTYPES = ["shape", "left", "top", "nearest_shape", "farthest_shape", "count_same"]
ANSWERS = ["circle", "square", "yes", "no", "1", "2", "3", "4", "5", "6"]


def make_scenes(n, rng):
    pos = rng.uniform(0, 1, size=(n, N_OBJ, 2))
    shape = rng.integers(0, 2, size=(n, N_OBJ))
    colour = np.tile(np.eye(N_OBJ), (n, 1, 1))
    objs = np.concatenate([colour, pos, shape[..., None]], -1).astype(np.float32)

    c = rng.integers(0, N_OBJ, size=n)
    qt = rng.integers(0, len(QTYPES), size=n)
    d = np.linalg.norm(pos[:, :, None] - pos[:, None], axis=-1)
    d[:, np.arange(N_OBJ), np.arange(N_OBJ)] = np.nan
    ans = np.zeros(n, dtype=np.int64)
    for k in range(n):
        o = c[k]
        if QTYPES[qt[k]] == "shape":
            ans[k] = shape[k, o]
        elif QTYPES[qt[k]] == "left":
            ans[k] = 2 if pos[k, o, 0] < 0.5 else 3
        elif QTYPES[qt[k]] == "top":
            ans[k] = 2 if pos[k, o, 1] < 0.5 else 3
        elif QTYPES[qt[k]] == "nearest_shape":
            ans[k] = shape[k, np.nanargmin(d[k, o])]
        elif QTYPES[qt[k]] == "farthest_shape":
            ans[k] = shape[k, np.nanargmax(d[k, o])]
        else:
            ans[k] = 3 + (shape[k] == shape[k, o]).sum()  # "1".."6"
    q = np.concatenate([np.eye(N_OBJ)[c], np.eye(len(QTYPES))[qt]], 1).astype(np.float32)
    return torch.from_numpy(objs), torch.from_numpy(q), torch.from_numpy(ans), torch.from_numpy(qt)
