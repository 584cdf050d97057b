from dataclasses import dataclass, field


@dataclass
class DataConfig:
    n_train: int = 4000
    n_test: int = 1000
    n_features: int = 8
    noise: float = 0.05
    seed: int = 123


@dataclass
class ModelConfig:
    n_experts: int = 4
    expert_hidden: int = 32
    gate_hidden: int = 32


@dataclass
class OptimConfig:
    lr: float = 3e-3
    batch_size: int = 64
    epochs: int = 25
    eval_batch_size: int = 500


@dataclass
class ExperimentConfig:
    name: str = "moe-load-forecast"
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    seed: int = 0
