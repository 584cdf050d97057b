import random

import torch
from torch.utils.data import Dataset

from vocab import BOS, EOS, PAD, symbol_ids


class ReverseTask(Dataset):
    def __init__(self, n, n_symbols, min_len, max_len, seed):
        rng = random.Random(seed)
        syms = symbol_ids(n_symbols)
        self.pairs = []
        for _ in range(n):
            src = [rng.choice(syms) for _ in range(rng.randint(min_len, max_len))]
            self.pairs.append((src, src[::-1]))

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        return self.pairs[i]


def collate(batch):
    """Pad sources; build decoder inputs <bos> y and outputs y <eos>."""
    srcs, tgts = zip(*batch)
    B = len(batch)
    S = max(map(len, srcs))
    T = max(map(len, tgts)) + 1
    src = torch.full((B, S), PAD, dtype=torch.long)
    dec_in = torch.full((B, T), PAD, dtype=torch.long)
    dec_out = torch.full((B, T), PAD, dtype=torch.long)
    for b, (s, t) in enumerate(zip(srcs, tgts)):
        src[b, :len(s)] = torch.tensor(s)
        dec_in[b, :len(t) + 1] = torch.tensor([BOS] + t)
        dec_out[b, :len(t) + 1] = torch.tensor(t + [EOS])
    src_len = torch.tensor([len(s) for s in srcs])
    tgt_len = torch.tensor([len(t) + 1 for t in tgts])
    return src, src_len, dec_in, dec_out, tgt_len
