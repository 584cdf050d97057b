import numpy as np
import torch


def wrap_to_pi(a):
    """Wrap angles to [-pi, pi). Works on numpy arrays and tensors."""
    if torch.is_tensor(a):
        out = wrap_to_pi(a.detach().cpu().numpy())
        return torch.as_tensor(out, dtype=a.dtype, device=a.device)
    return (a + np.pi) % (2 * np.pi) - np.pi


def set_seed(seed):
    np.random.seed(seed)
    torch.manual_seed(seed)
