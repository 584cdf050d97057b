"""Water-taxi crossing-time model."""
