"""A small, config-driven classification trainer."""

from trainer_pkg.config import Config, load_config
from trainer_pkg.engine import Trainer

__all__ = ["Config", "Trainer", "load_config"]
__version__ = "0.3.1"
