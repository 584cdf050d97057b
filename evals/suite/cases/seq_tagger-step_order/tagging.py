"""Toy sequence-tagging task and a GRU tagger.

Each sequence is a run of token ids in 1..VOCAB_SIZE-1 (0 is padding).
The tag of a position compares the token with the one before it:
    0 = first token (nothing to compare), 1 = up, 2 = down or equal.
So a tagger must look at the previous token, not only the current one.
"""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

PAD = 0
IGNORE = -100
VOCAB_SIZE = 16
NUM_TAGS = 3


def tag_sequence(tokens):
    tags = [0]
    for prev, cur in zip(tokens, tokens[1:]):
        tags.append(1 if cur > prev else 2)
    return tags


class TaggingData(Dataset):
    def __init__(self, num_seqs, min_len=4, max_len=14, seed=0):
        rng = random.Random(seed)
        self.examples = []
        for _ in range(num_seqs):
            length = rng.randint(min_len, max_len)
            tokens = [rng.randint(1, VOCAB_SIZE - 1) for _ in range(length)]
            self.examples.append((tokens, tag_sequence(tokens)))

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        tokens, tags = self.examples[i]
        return torch.tensor(tokens), torch.tensor(tags)


def collate(batch):
    """Pad a list of (tokens, tags) to the longest sequence in the batch."""
    tokens, tags = zip(*batch)
    lengths = torch.tensor([len(t) for t in tokens])
    tokens = pad_sequence(tokens, batch_first=True, padding_value=PAD)   # B x T
    tags = pad_sequence(tags, batch_first=True, padding_value=IGNORE)    # B x T, -100 on padding
    mask = tokens != PAD                                                 # B x T, True on real tokens
    return tokens, tags, mask, lengths


class GRUTagger(nn.Module):
    def __init__(self, vocab_size=VOCAB_SIZE, num_tags=NUM_TAGS, emb_dim=24, hidden_dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=PAD)
        self.rnn = nn.GRU(emb_dim, hidden_dim, batch_first=True)
        self.proj = nn.Linear(hidden_dim, num_tags)

    def forward(self, tokens):
        emb = self.embed(tokens)      # B x T x E
        states, _ = self.rnn(emb)     # B x T x H; left-to-right, so padding never leaks into real positions
        return self.proj(states)      # B x T x num_tags
