from dataclasses import dataclass


@dataclass
class TrainConfig:
    seed: int = 0
    train_sessions: int = 24
    val_sessions: int = 8
    windows_per_session: int = 90
    window: int = 128
    epochs: int = 10
    batch_size: int = 64
    lr: float = 2e-3
    channels: int = 16
