from dataclasses import dataclass


@dataclass
class Config:
    seed: int = 5
    n_samples: int = 6000
    data_path: str = "data/projectiles.npz"
    hidden: int = 96
    depth: int = 3
    batch_size: int = 128
    lr: float = 2e-3
    epochs: int = 30
    huber_delta: float = 1.0
    val_fraction: float = 0.15
    test_fraction: float = 0.15
