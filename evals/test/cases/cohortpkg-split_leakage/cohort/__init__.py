"""Patient/control classification from band-power features of short recordings."""

__version__ = "0.2.0"
