from dataclasses import dataclass


@dataclass
class Config:
    seed: int = 0
    n_blocks: int = 6000
    val_fraction: float = 0.25
    hidden: int = 32
    batch_size: int = 64
    epochs: int = 30
    lr: float = 3e-3
    # step decay: multiply lr by `lr_gamma` every `lr_step` epochs
    lr_step: int = 10
    lr_gamma: float = 0.3
