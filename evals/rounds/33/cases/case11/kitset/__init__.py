"""Set encoder for sewing-kit contents."""
