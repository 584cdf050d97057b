"""Graph-GRU speed forecaster for a small freeway sensor network."""
