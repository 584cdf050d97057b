from dataclasses import dataclass


@dataclass
class TrainConfig:
    n_samples: int = 6000
    val_fraction: float = 0.2
    micro_batch_size: int = 64
    grad_accum_steps: int = 2
    epochs: int = 8
    lr: float = 2e-3
    weight_decay: float = 1e-4
    hidden: int = 128
    n_blocks: int = 2
    max_grad_norm: float = 1.0
    log_every: int = 25
    seed: int = 17
