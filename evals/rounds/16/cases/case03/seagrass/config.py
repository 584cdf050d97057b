from dataclasses import dataclass


@dataclass
class Config:
    tile: int = 24
    n_train: int = 480
    n_val: int = 160
    width: int = 16
    epochs: int = 12
    batch_size: int = 16
    lr: float = 2e-3
    seed: int = 3
    n_classes: int = 2  # 0 = sediment, 1 = seagrass
