import random

import torch

PAD, BOS, EOS = 0, 1, 2
SYMBOLS = ["<pad>", "<s>", "</s>", "(", ")", "[", "]", "{", "}"]
OPEN = {3: 4, 5: 6, 7: 8}
VOCAB = len(SYMBOLS)


def sample_string(rng, max_len, max_depth=6):
    """S -> '' | ( S ) S | [ S ] S | { S } S with a length budget."""
    out, stack = [], []
    target = rng.randint(4, max_len - 2)
    while len(out) + len(stack) < target or stack:
        can_open = len(stack) < max_depth and len(out) + len(stack) + 2 <= target
        if stack and (not can_open or rng.random() < 0.45):
            out.append(OPEN[stack.pop()])
        else:
            o = rng.choice(list(OPEN))
            stack.append(o)
            out.append(o)
    return out


def make_corpus(n, max_len, seed):
    rng = random.Random(seed)
    seqs = torch.full((n, max_len + 2), PAD, dtype=torch.long)
    for i in range(n):
        s = [BOS] + sample_string(rng, max_len) + [EOS]
        seqs[i, :len(s)] = torch.tensor(s)
    return seqs


def key_padding_mask(tokens):
    """True where the position is padding (the convention of nn.MultiheadAttention)."""
    return tokens == PAD
