import torch
from torch.utils.data import DataLoader, Dataset, SequentialSampler


def fnv1a(word):
    h = 0x811C9DC5
    for b in word.encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


class ListingDataset(Dataset):
    def __init__(self, texts, labels, buckets, max_tokens):
        self.items = []
        for text, label in zip(texts, labels):
            ids = [1 + fnv1a(w) % (buckets - 1) for w in text.lower().split()][:max_tokens]
            ids = ids + [0] * (max_tokens - len(ids))
            self.items.append((torch.tensor(ids), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def make_loader(ds, cfg, train):
    kwargs = dict(batch_size=cfg["batch_size"], num_workers=cfg["num_workers"],
                  persistent_workers=cfg["num_workers"] > 0)
    if train:
        # fixed sample order keeps runs comparable between worker counts
        if cfg["deterministic_order"]:
            kwargs["sampler"] = SequentialSampler(ds)
        else:
            kwargs["shuffle"] = True
    return DataLoader(ds, **kwargs)
