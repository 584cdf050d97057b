"""Water-table forecasting for a raised bog (toy station data)."""
__version__ = "0.3.1"
