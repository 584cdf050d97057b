"""A stand-in for the few torchvision pieces the real-repo suite uses.

torchvision from PyPI does not import against this torch build, and the suite never
downloads. This package implements only what the suite's repos call: MNIST read from
IDX files on disk, a handful of transforms, and make_grid/save_image (a plain PNG writer).
It is copied into the investigated folder before a run, so `import torchvision` finds it.
"""

from . import datasets, models, ops, transforms, utils

__version__ = "0.0.0+standin"
__all__ = ["datasets", "models", "ops", "transforms", "utils"]
