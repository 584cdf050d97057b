"""Nearest-flight lookup: after scoring a batch of candidate flights, find the stored
flight whose pooled vector is closest to each candidate (used by the sommelier UI)."""
import torch


def nearest_flights(model, library_vecs, k=3):
    q = model.last_flight_vec
    if q is None:
        raise RuntimeError("score some flights first")
    d = torch.cdist(q, library_vecs)
    return d.topk(k, largest=False).indices
