from dataclasses import dataclass


@dataclass
class Config:
    n_per_reed: int = 300
    trace_len: int = 128
    n_reeds: int = 4
    val_fraction: float = 0.25
    batch_size: int = 64
    lr: float = 3e-3
    epochs: int = 12
    seed: int = 0
