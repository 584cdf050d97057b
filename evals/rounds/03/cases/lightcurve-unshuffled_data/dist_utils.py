import os

import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def setup(backend="gloo"):
    """Initialise the default process group from torchrun-style env vars.
    Falls back to a single local process when launched with plain `python`."""
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    dist.init_process_group(backend, rank=rank, world_size=world)
    return rank, world


def cleanup():
    if dist.is_initialized():
        dist.destroy_process_group()


def build_loader(dataset, batch_size, rank, world, shuffle=False, seed=0):
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank, shuffle=shuffle, seed=seed)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=False)


def all_reduce_sum(t):
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t
