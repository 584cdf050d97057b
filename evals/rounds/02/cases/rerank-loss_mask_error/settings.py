"""Experiment settings for the reranker."""
from types import SimpleNamespace

DEFAULTS = SimpleNamespace(
    n_features=14,
    n_train_queries=800,
    n_val_queries=200,
    min_docs=5,
    max_docs=30,
    hidden=64,
    margin=1.0,
    lr=2e-3,
    weight_decay=1e-5,
    epochs=12,
    queries_per_batch=16,
    seed=0,
)
