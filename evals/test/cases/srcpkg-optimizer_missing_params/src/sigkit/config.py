from dataclasses import asdict, dataclass, field


@dataclass
class TrainConfig:
    seed: int = 7
    n_train: int = 1800
    n_val: int = 600
    signal_len: int = 128
    n_classes: int = 6

    channels: tuple = (16, 32, 64)
    dropout: float = 0.1

    epochs: int = 8
    batch_size: int = 64
    lr: float = 3e-4
    head_lr_mult: float = 10.0
    weight_decay: float = 1e-4

    cache_dir: str = "data/cache"
    out_dir: str = "runs"
    log_every: int = 10
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        return asdict(self)
