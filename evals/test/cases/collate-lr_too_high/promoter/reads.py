import random

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

ALPHABET = "ACGT"
PAD = 0
TOKEN = {base: i + 1 for i, base in enumerate(ALPHABET)}
BOX = "TATAAT"


def random_read(rng, length):
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def plant(seq, motif, pos):
    return seq[:pos] + motif + seq[pos + len(motif):]


class ReadDataset(Dataset):
    def __init__(self, n_reads, seed=0, min_len=30, max_len=80):
        rng = random.Random(seed)
        self.reads, self.labels = [], []
        for _ in range(n_reads):
            length = rng.randint(min_len, max_len)
            seq = random_read(rng, length)
            label = rng.random() < 0.5
            if label:
                seq = plant(seq, BOX, rng.randint(0, length - len(BOX)))
            else:
                seq = seq.replace(BOX, random_read(rng, len(BOX)))
                if rng.random() < 0.5:
                    decoy = list(BOX)
                    decoy[rng.randrange(len(BOX))] = rng.choice("CG")
                    seq = plant(seq, "".join(decoy), rng.randint(0, length - len(BOX)))
            self.reads.append(seq)
            self.labels.append(int(BOX in seq))

    def __len__(self):
        return len(self.reads)

    def __getitem__(self, i):
        ids = torch.tensor([TOKEN[b] for b in self.reads[i]], dtype=torch.long)
        return ids, self.labels[i]


def collate_reads(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=PAD)
    return padded, lengths, torch.tensor(labels, dtype=torch.float)
