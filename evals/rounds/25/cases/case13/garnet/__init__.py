"""Tiny crystal-graph regressor for garnet substitutions."""
__version__ = "0.3.1"
