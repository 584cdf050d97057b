import numpy as np
import torch
from torch.utils.data import Dataset

LABELS = ["normal", "retry_storm", "auth_failure"]
# event ids that make up each pattern (inserted with random gaps)
PATTERNS = {1: [11, 12, 11, 12, 13], 2: [21, 22, 23]}


def make_sessions(n, vocab, min_len, max_len, seed):
    rng = np.random.default_rng(seed)
    seqs, labels = [], []
    background = np.array([v for v in range(3, vocab) if v not in (11, 12, 13, 21, 22, 23)])
    for _ in range(n):
        L = rng.integers(min_len, max_len + 1)
        s = rng.choice(background, size=L)
        y = rng.integers(0, 3)
        # normal sessions may contain fragments of the patterns, never the whole thing
        if y == 0 and rng.random() < 0.5:
            frag = PATTERNS[rng.integers(1, 3)][:2]
            pos = rng.integers(0, L - len(frag))
            s[pos:pos + len(frag)] = frag
        elif y > 0:
            pat = PATTERNS[y]
            pos = np.sort(rng.choice(L, size=len(pat), replace=False))
            s[pos] = pat
        seqs.append(s.astype(np.int64))
        labels.append(y)
    return seqs, np.array(labels)


class SessionDataset(Dataset):
    def __init__(self, seqs, labels, max_len):
        self.seqs, self.labels, self.max_len = seqs, labels, max_len

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        x = torch.zeros(self.max_len, dtype=torch.long)  # 0 = padding id
        s = torch.from_numpy(self.seqs[i])
        x[: len(s)] = s
        return x, int(self.labels[i])
