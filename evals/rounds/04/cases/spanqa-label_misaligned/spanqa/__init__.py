"""Toy extractive QA (start/end pointer heads)."""
