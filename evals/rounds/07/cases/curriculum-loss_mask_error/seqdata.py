import torch

PAD = 0  # digits are stored as 1..10 so that 0 can be padding


def sample_batch(batch_size, max_len, modulus, gen):
    """Digits with random lengths in [max_len // 2, max_len], right-padded."""
    lengths = torch.randint(max_len // 2, max_len + 1, (batch_size,), generator=gen)
    digits = torch.randint(0, 10, (batch_size, max_len), generator=gen)
    pad = padding_mask(lengths, max_len)
    digits = digits.masked_fill(pad, 0)
    targets = torch.cumsum(digits, dim=1) % modulus
    tokens = (digits + 1).masked_fill(pad, PAD)
    targets = targets.masked_fill(pad, 0)
    return tokens, targets, lengths


def padding_mask(lengths, max_len):
    """Boolean [B, T], True at padded positions (key_padding_mask convention)."""
    return torch.arange(max_len)[None, :] >= lengths[:, None]
