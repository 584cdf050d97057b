import numpy as np
import torch
from torch.utils.data import Dataset

N_JOINTS = 15


def synth_hand(n_letters, per_letter, seed):
    """Each letter has a prototype pose; signers add their own offset and jitter.

    Returned grouped letter by letter (the capture sessions recorded one letter
    at a time)."""
    rng = np.random.default_rng(seed)
    protos = rng.uniform(0, 1.4, size=(n_letters, N_JOINTS * 2))
    xs, ys = [], []
    for k in range(n_letters):
        signer = rng.normal(0, 0.25, size=(per_letter, 1))
        pose = protos[k] + signer + rng.normal(0, 0.35, size=(per_letter, N_JOINTS * 2))
        xs.append(pose)
        ys.append(np.full(per_letter, k))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys)


class JointAngles(Dataset):
    def __init__(self, x, y):
        # angles in radians -> sin/cos so wrap-around does not matter
        self.x = torch.from_numpy(np.concatenate([np.sin(x), np.cos(x)], 1))
        self.y = torch.from_numpy(y).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
