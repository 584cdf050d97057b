from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class DataConfig:
    n_per_class: int = 300
    n_features: int = 8
    n_classes: int = 4
    center_scale: float = 2.0
    val_fraction: float = 0.2


@dataclass
class ModelConfig:
    hidden_sizes: list[int] = field(default_factory=lambda: [64, 32])
    dropout: float = 0.1


@dataclass
class OptimConfig:
    lr: float = 3e-3
    weight_decay: float = 1e-2
    batch_size: int = 64
    epochs: int = 12
    step_size: int = 5
    gamma: float = 0.5
    max_grad_norm: float = 1.0


@dataclass
class Config:
    seed: int = 0
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)


def load_config(path: str | Path) -> Config:
    raw = json.loads(Path(path).read_text())
    return Config(
        seed=raw.get("seed", 0),
        data=DataConfig(**raw.get("data", {})),
        model=ModelConfig(**raw.get("model", {})),
        optim=OptimConfig(**raw.get("optim", {})),
    )
