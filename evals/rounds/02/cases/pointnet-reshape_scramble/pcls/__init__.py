"""Tiny PointNet classifier on synthetic primitive shapes."""
__version__ = "0.3.1"
