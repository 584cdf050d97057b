import torch


def freeze_by_prefix(model, prefixes):
    """Fix the parameters whose names start with one of `prefixes`."""
    prefixes = tuple(prefixes)
    for name, p in model.named_parameters():
        p.requires_grad_(name.startswith(prefixes))
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    n_all = sum(p.numel() for p in model.parameters())
    print(f"trainable parameters: {n_train}/{n_all}")


def batches(n, bs, generator):
    perm = torch.randperm(n, generator=generator)
    for s in range(0, n, bs):
        yield perm[s:s + bs]
