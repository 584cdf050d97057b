"""TileNet: small residual CNN for 12x12 inspection tiles."""
