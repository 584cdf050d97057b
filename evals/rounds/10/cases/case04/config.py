from dataclasses import dataclass


@dataclass
class Config:
    n_train: int = 6000
    n_val: int = 2000
    dim: int = 16
    flip_rate: float = 0.32
    hidden: int = 128
    epochs: int = 30
    batch_size: int = 128
    lr: float = 1e-3
    beta: float = 0.8          # weight of the given label in the bootstrapped target
    warmup_epochs: int = 3     # plain BCE before bootstrapping kicks in
    seed: int = 0
