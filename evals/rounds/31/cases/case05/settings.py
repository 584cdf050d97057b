from dataclasses import dataclass


@dataclass
class Settings:
    n_train: int = 2000
    n_val: int = 500
    curve_len: int = 32
    hidden: int = 64
    epochs: int = 30
    batch_size: int = 100
    lr: float = 3e-3
    visc_weight: float = 1.0
    seed: int = 11
