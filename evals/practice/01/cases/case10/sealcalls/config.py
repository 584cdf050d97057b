from dataclasses import dataclass, fields
import argparse


@dataclass
class Config:
    seed: int = 3
    n_clips: int = 2400
    val_fraction: float = 0.2
    n_mels: int = 24
    min_frames: int = 30
    max_frames: int = 70
    silent_fraction: float = 0.06     # share of recordings with no call in them
    energy_floor: float = 0.45        # mean log-energy under which a clip is "silence"
    epochs: int = 10
    batch_size: int = 64
    lr: float = 2e-3
    workers: int = 2


def from_cli():
    ap = argparse.ArgumentParser()
    for f in fields(Config):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default),
                        default=f.default)
    ns = ap.parse_args()
    return Config(**vars(ns))
