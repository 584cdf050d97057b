"""Feature-tokenizer transformer for small tabular problems."""
__version__ = "0.3.1"
