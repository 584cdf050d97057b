import torch


def build_optimizer(model, optim_cfg):
    """AdamW with one parameter group per entry of `param_groups`; a parameter joins
    the first group whose `match` prefix its name starts with."""
    groups = [{"params": [], "lr": g["lr"], "name": g["match"]} for g in optim_cfg["param_groups"]]
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        for g, spec in zip(groups, optim_cfg["param_groups"]):
            if name.startswith(spec["match"]):
                g["params"].append(p)
                break
    return torch.optim.AdamW(groups, weight_decay=optim_cfg["weight_decay"])


def describe(optimizer):
    return ", ".join(f"{g['name']}lr={g['lr']:g}" for g in optimizer.param_groups)
