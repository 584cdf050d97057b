"""Character LM on a toy grammar."""
