"""Delay propagation on a station graph."""
__version__ = "0.3.1"
