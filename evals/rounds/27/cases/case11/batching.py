import torch

from grammar import PAD


def pad_batch(docs):
    lengths = torch.tensor([len(d) for d in docs])
    T = int(lengths.max())
    x = torch.full((len(docs), T), PAD, dtype=torch.long)
    for i, d in enumerate(docs):
        x[i, :len(d)] = torch.tensor(d)
    return x, lengths


def padding_mask(lengths, T):
    """(B, T) bool, True where the position is padding (nn.Transformer convention)."""
    return torch.arange(T).unsqueeze(0) >= lengths.unsqueeze(1)


def lm_pairs(x, lengths):
    """Shift by one: inputs are tokens[:-1], targets tokens[1:]."""
    return x[:, :-1], x[:, 1:], lengths - 1
