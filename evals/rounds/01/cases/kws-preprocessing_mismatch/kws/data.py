import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from .features import build_transforms
from .synth import build_corpus


class KeywordDataset(Dataset):
    def __init__(self, mels, labels, transform, seed=0):
        self.mels = mels
        self.labels = labels
        self.transform = transform
        self.seed = seed
        self.epoch = 0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        # per-item rng so augmentation does not depend on worker scheduling
        rng = np.random.default_rng((self.seed, self.epoch, i))
        feats = self.transform(self.mels[i], rng)
        # conv1d wants (channels=coeffs, time)
        x = torch.from_numpy(np.ascontiguousarray(feats.T, dtype=np.float32))
        return x, int(self.labels[i])


def make_loaders(cfg):
    n_kw = len(cfg["keywords"])
    Xtr, ytr, templates = build_corpus(n_kw, cfg["n_train_per_kw"], cfg["n_frames"], cfg["n_mels"], cfg["seed"])
    Xva, yva, _ = build_corpus(n_kw, cfg["n_val_per_kw"], cfg["n_frames"], cfg["n_mels"], cfg["seed"] + 1000,
                               templates=templates)
    train_ds = KeywordDataset(Xtr, ytr, build_transforms(cfg, cfg["n_mels"], train=True), seed=cfg["seed"])
    val_ds = KeywordDataset(Xva, yva, build_transforms(cfg, cfg["n_mels"], train=False), seed=cfg["seed"])
    lc = cfg["loader"]
    g = torch.Generator().manual_seed(cfg["seed"])
    train_dl = DataLoader(train_ds, batch_size=lc["batch_size"], shuffle=True, num_workers=lc["num_workers"],
                          generator=g, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=256, shuffle=False, num_workers=lc["num_workers"])
    return train_dl, val_dl
