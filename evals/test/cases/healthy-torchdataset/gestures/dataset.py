"""Touch-gesture trajectories stored as JSON lines.

The recorder writes one file per split, gesture by gesture (all circles,
then all swipes, ...), so the raw files are ordered by class.
"""
import json
import math
import random
from pathlib import Path

import torch
from torch.utils.data import Dataset

CLASSES = ("circle", "swipe_left", "swipe_right", "zigzag", "check", "tap")


def _trajectory(kind, n, rnd):
    pts = []
    for i in range(n):
        t = i / (n - 1)
        if kind == "circle":
            a = 2 * math.pi * t
            x, y = math.cos(a), math.sin(a)
        elif kind == "swipe_left":
            x, y = 1 - 2 * t, 0.1 * math.sin(3 * t)
        elif kind == "swipe_right":
            x, y = -1 + 2 * t, 0.1 * math.sin(3 * t)
        elif kind == "zigzag":
            x, y = -1 + 2 * t, 0.6 * (1 if int(t * 4) % 2 == 0 else -1) * (t * 4 % 1)
        elif kind == "check":
            x = -1 + 2 * t
            y = -3 * t if t < 1 / 3 else -1 + 3 * (t - 1 / 3)
        else:
            x, y = 0.05 * math.cos(20 * t), 0.05 * math.sin(20 * t)
        pts.append([x, y])
    scale = rnd.uniform(0.6, 1.4)
    ox, oy = rnd.uniform(-0.5, 0.5), rnd.uniform(-0.5, 0.5)
    theta = rnd.uniform(-0.6, 0.6)          # hand/phone tilt
    c, s = math.cos(theta), math.sin(theta)
    out = []
    for x, y in pts:
        xr, yr = c * x - s * y, s * x + c * y
        out.append([scale * xr + ox + rnd.gauss(0, 0.25), scale * yr + oy + rnd.gauss(0, 0.25)])
    return out


def write_split(path, per_class, seed):
    rnd = random.Random(seed)
    with open(path, "w") as fh:
        for label, kind in enumerate(CLASSES):
            for _ in range(per_class):
                n = rnd.randint(16, 48)
                fh.write(json.dumps({"label": label, "points": _trajectory(kind, n, rnd)}) + "\n")


class GestureDataset(Dataset):
    """`GestureDataset(root, train=True)` / `GestureDataset(root, train=False)`."""

    files = {True: "gestures_train.jsonl", False: "gestures_test.jsonl"}

    def __init__(self, root, train=True, generate=True, per_class=None):
        self.root = Path(root)
        self.train = train
        path = self.root / self.files[train]
        if not path.exists():
            if not generate:
                raise FileNotFoundError(f"{path} not found; pass generate=True")
            self.root.mkdir(parents=True, exist_ok=True)
            per_class = per_class or (200 if train else 100)
            write_split(path, per_class, seed=11 if train else 12)
        self.samples = []
        with open(path) as fh:
            for line in fh:
                rec = json.loads(line)
                self.samples.append((torch.tensor(rec["points"], dtype=torch.float32), rec["label"]))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        points, label = self.samples[idx]
        # per-sample centering: position on the screen carries no class information
        points = points - points.mean(dim=0, keepdim=True)
        deltas = torch.diff(points, dim=0, prepend=points[:1])
        return torch.cat([points, deltas], dim=1), label


def pad_collate(batch):
    """Pad variable-length trajectories; return (padded, lengths, labels)."""
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True)
    return padded, lengths, torch.tensor(labels)
