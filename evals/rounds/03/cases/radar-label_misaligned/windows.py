import torch


def make_windows(seqs, n_in, horizon=1):
    """Cut (N, T, H, W) sequences into training pairs.

    inputs: `n_in` consecutive frames, shape (M, n_in, H, W)
    target: the frame `horizon` steps after the last input frame, shape (M, H, W)
    """
    T = seqs.shape[1]
    xs, ys = [], []
    for t in range(n_in, T - horizon):
        xs.append(seqs[:, t - n_in:t])
        ys.append(seqs[:, t + horizon])
    return torch.cat(xs), torch.cat(ys)
