"""Reed classification from chanter pressure traces."""
