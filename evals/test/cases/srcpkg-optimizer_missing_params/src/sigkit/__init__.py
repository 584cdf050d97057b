"""sigkit: 1D-CNN machine-state classifier."""

__version__ = "0.3.1"
