"""Toy GNN toxicity model."""
