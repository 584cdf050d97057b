import torch


class ReplayBuffer:
    """Fixed-size per-class memory filled by reservoir sampling."""

    def __init__(self, per_class, seed=0):
        self.per_class = per_class
        self.store = {}
        self.seen = {}
        self.gen = torch.Generator().manual_seed(seed)

    def add(self, x, y):
        for xi, yi in zip(x, y.tolist()):
            bucket = self.store.setdefault(yi, [])
            self.seen[yi] = self.seen.get(yi, 0) + 1
            if len(bucket) < self.per_class:
                bucket.append(xi.clone())
            else:
                j = torch.randint(0, self.seen[yi], (1,), generator=self.gen).item()
                if j < self.per_class:
                    bucket[j] = xi.clone()

    def __len__(self):
        return sum(len(v) for v in self.store.values())

    def sample(self, n):
        xs, ys = [], []
        for c, bucket in self.store.items():
            xs += bucket
            ys += [c] * len(bucket)
        idx = torch.randint(0, len(xs), (n,), generator=self.gen)
        return torch.stack(xs)[idx], torch.tensor(ys)[idx]

    def replay_loss(self, model, criterion, n, chunk=32):
        """Loss on n remembered samples, evaluated in chunks to keep peak memory flat."""
        x, y = self.sample(n)
        total = 0.0
        for i in range(0, n, chunk):
            total += criterion(model(x[i:i + chunk]), y[i:i + chunk]).item() * len(y[i:i + chunk])
        return torch.tensor(total / n)
