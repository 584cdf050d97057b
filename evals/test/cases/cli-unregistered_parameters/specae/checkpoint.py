import logging
from pathlib import Path

import torch

log = logging.getLogger(__name__)


def save(model, optimizer, epoch, metrics, directory, keep_last=2):
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"epoch{epoch:03d}.pt"
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "metrics": metrics}, path)
    old = sorted(directory.glob("epoch*.pt"))[:-keep_last]
    for p in old:
        p.unlink()
    log.debug("saved %s", path)
    return path


def load_latest(model, directory):
    ckpts = sorted(Path(directory).glob("epoch*.pt"))
    if not ckpts:
        raise FileNotFoundError(f"no checkpoints in {directory}")
    state = torch.load(ckpts[-1])
    model.load_state_dict(state["model"])
    return state
