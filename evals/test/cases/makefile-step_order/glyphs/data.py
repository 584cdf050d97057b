import numpy as np
import torch
from torch.utils.data import TensorDataset, DataLoader, random_split


def load_npz(path):
    blob = np.load(path)
    images = torch.from_numpy(blob["images"]).float().div_(255.0).unsqueeze(1)
    labels = torch.from_numpy(blob["labels"]).long()
    return images, labels


def make_loaders(cfg, seed):
    images, labels = load_npz(cfg["data"]["train_file"])
    full = TensorDataset(images, labels)
    n_val = int(len(full) * cfg["data"]["val_fraction"])
    gen = torch.Generator().manual_seed(seed)
    train_set, val_set = random_split(full, [len(full) - n_val, n_val], generator=gen)

    test_images, test_labels = load_npz(cfg["data"]["test_file"])
    test_set = TensorDataset(test_images, test_labels)

    bs = cfg["train"]["micro_batch"]
    return (
        DataLoader(train_set, batch_size=bs, shuffle=True, generator=gen, drop_last=True),
        DataLoader(val_set, batch_size=256),
        DataLoader(test_set, batch_size=256),
    )
