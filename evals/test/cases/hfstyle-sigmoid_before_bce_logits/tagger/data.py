import random

import torch
from torch.utils.data import Dataset

TAGS = ["billing", "login", "shipping", "refund", "outage", "feature", "account", "security"]
PAD_ID = 0
VOCAB_SIZE = 600
TOPIC_WORDS = 12


def _topic_vocab(tag_idx):
    start = 1 + tag_idx * TOPIC_WORDS
    return list(range(start, start + TOPIC_WORDS))


FILLER = list(range(1 + len(TAGS) * TOPIC_WORDS, VOCAB_SIZE))


class TicketDataset(Dataset):
    def __init__(self, n_tickets: int, seed: int = 0, min_len: int = 12, max_len: int = 40):
        rng = random.Random(seed)
        self.examples = []
        for _ in range(n_tickets):
            n_tags = rng.choice([1, 1, 2, 2, 3])
            tags = rng.sample(range(len(TAGS)), n_tags)
            length = rng.randint(min_len, max_len)
            tokens = [rng.choice(FILLER) for _ in range(length)]
            for t in tags:
                for _ in range(rng.randint(2, 4)):
                    tokens[rng.randrange(length)] = rng.choice(_topic_vocab(t))
            labels = [0.0] * len(TAGS)
            for t in tags:
                labels[t] = 1.0
            self.examples.append({"input_ids": tokens, "labels": labels})

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, idx):
        return self.examples[idx]


class PaddingCollator:
    def __init__(self, pad_id: int = PAD_ID):
        self.pad_id = pad_id

    def __call__(self, features):
        max_len = max(len(f["input_ids"]) for f in features)
        input_ids = torch.full((len(features), max_len), self.pad_id, dtype=torch.long)
        attention_mask = torch.zeros((len(features), max_len), dtype=torch.long)
        for i, f in enumerate(features):
            n = len(f["input_ids"])
            input_ids[i, :n] = torch.tensor(f["input_ids"])
            attention_mask[i, :n] = 1
        labels = torch.tensor([f["labels"] for f in features], dtype=torch.float)
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}
