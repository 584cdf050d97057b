from dataclasses import dataclass


@dataclass
class Config:
    snippet_len: int = 96
    train_snippets: int = 1200
    test_snippets: int = 800
    batch_size: int = 1
    epochs: int = 2
    lr: float = 2e-3
    channels: int = 16
    seed: int = 11
