import torch
import torch.nn as nn
import torch.nn.functional as F


class BPRMF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1) + self.item_bias(i).squeeze(-1)

    def bpr_loss(self, u, pos, neg, reg):
        x_uij = self.score(u, pos) - self.score(u, neg)
        l2 = self.user(u).pow(2).sum(-1) + self.item(pos).pow(2).sum(-1) + self.item(neg).pow(2).sum(-1)
        return -F.logsigmoid(x_uij).mean() + reg * l2.mean()


class TripletSampler:
    """Uniform (user, positive, negative) triplets from the training interactions."""

    def __init__(self, users, items, n_items, batch_size, seed):
        self.users = torch.as_tensor(users)
        self.items = torch.as_tensor(items)
        self.n_items = n_items
        self.bs = batch_size
        self.g = torch.Generator().manual_seed(seed)
        self.seen = torch.zeros(int(self.users.max()) + 1, n_items, dtype=torch.bool)
        self.seen[self.users, self.items] = True

    def __len__(self):
        return (len(self.users) + self.bs - 1) // self.bs

    def __iter__(self):
        perm = torch.randperm(len(self.users), generator=self.g)
        for s in range(0, len(perm), self.bs):
            idx = perm[s:s + self.bs]
            u, p = self.users[idx], self.items[idx]
            n = torch.randint(self.n_items, (len(idx),), generator=self.g)
            # resample the (rare) negatives that are actually positives
            bad = self.seen[u, n]
            while bad.any():
                n[bad] = torch.randint(self.n_items, (int(bad.sum()),), generator=self.g)
                bad = self.seen[u, n]
            yield u, p, n
