import math

import torch

TWO_PI = 2 * math.pi


def wrap_to_pi(a):
    """Map angles to [-pi, pi). The remainder jumps at +-pi; inside the range it is the
    identity shift, which is all the loss needs."""
    return torch.remainder(a.data + math.pi, TWO_PI) - math.pi


def to_angle(sc):
    return torch.atan2(sc[..., 0], sc[..., 1])
