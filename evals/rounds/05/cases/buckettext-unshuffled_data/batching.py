import torch
from torch.utils.data import Dataset, Sampler

from corpus import PAD


class TicketDataset(Dataset):
    def __init__(self, texts, labels):
        self.texts = texts
        self.labels = labels

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return torch.from_numpy(self.texts[i]), int(self.labels[i])


def pad_collate(batch):
    lengths = torch.tensor([len(t) for t, _ in batch])
    tokens = torch.full((len(batch), int(lengths.max())), PAD, dtype=torch.long)
    for row, (t, _) in enumerate(batch):
        tokens[row, :len(t)] = t
    labels = torch.tensor([y for _, y in batch])
    return tokens, lengths, labels


class BucketBatchSampler(Sampler):
    """Shuffle, cut into pools of `pool_batches` batches, sort each pool by length,
    and emit the pool's batches. Keeps padding low without a global length sort."""

    def __init__(self, lengths, batch_size, pool_batches=8, seed=0, drop_last=False):
        self.lengths = list(lengths)
        self.indices = list(range(len(self.lengths)))
        self.batch_size = batch_size
        self.pool_size = batch_size * pool_batches
        self.seed = seed
        self.epoch = 0
        self.drop_last = drop_last

    def set_epoch(self, epoch):
        self.epoch = epoch

    def _batches(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        order = [self.indices[i] for i in torch.randperm(len(self.indices), generator=g).tolist()]
        for start in range(0, len(order), self.pool_size):
            pool = sorted(self.indices[start:start + self.pool_size], key=self.lengths.__getitem__)
            for b in range(0, len(pool), self.batch_size):
                batch = pool[b:b + self.batch_size]
                if self.drop_last and len(batch) < self.batch_size:
                    continue
                yield batch

    def __iter__(self):
        return iter(list(self._batches()))

    def __len__(self):
        return sum(1 for _ in self._batches())
