"""Claim severity modelling with a Gamma deviance."""
__version__ = "0.3.1"
