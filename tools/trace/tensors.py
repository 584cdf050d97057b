"""Bounded summaries of tensors and the repo frame of the current call.

Runs inside the traced process: standard library and torch only.
"""

from __future__ import annotations

import math
import os
import sys
import weakref

import torch

_TRACER_DIR = os.path.dirname(os.path.realpath(__file__))
_REPO_ROOT = os.path.realpath(os.getcwd())
_frame_cache: dict[str, bool] = {}
SEEN_FUNCTIONS: set[str] = set()  # "file:function" of repo frames observed at hooks


def set_repo_root(path: str) -> None:
    global _REPO_ROOT
    _REPO_ROOT = os.path.realpath(path)
    _frame_cache.clear()
    _relpath_cache.clear()


def in_repo(filename: str) -> bool:
    hit = _frame_cache.get(filename)
    if hit is None:
        real = os.path.realpath(filename) if not filename.startswith("<") else ""
        hit = (
            real.startswith(_REPO_ROOT + os.sep)
            and not real.startswith(_TRACER_DIR)
            and "site-packages" not in real
            and "dist-packages" not in real
        )
        _frame_cache[filename] = hit
    return hit


_relpath_cache: dict[str, str] = {}


def relpath(filename: str) -> str:
    hit = _relpath_cache.get(filename)
    if hit is None:
        hit = _relpath_cache[filename] = _relpath(filename)
    return hit


def _relpath(filename: str) -> str:
    real = os.path.realpath(filename)
    if real.startswith(_REPO_ROOT + os.sep):
        return real[len(_REPO_ROOT) + 1 :].replace(os.sep, "/")
    return filename


def repo_frame(skip: int = 1) -> tuple[str, int, str] | None:
    """(file relative to the repo, line, function) of the innermost frame in the repo."""
    f = sys._getframe(skip)
    while f is not None:
        if in_repo(f.f_code.co_filename):
            fr = (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
            SEEN_FUNCTIONS.add(f"{fr[0]}:{fr[2]}")
            # callers of this frame inside the repo were executed too
            g = f.f_back
            while g is not None:
                if in_repo(g.f_code.co_filename):
                    SEEN_FUNCTIONS.add(f"{relpath(g.f_code.co_filename)}:{g.f_code.co_name}")
                g = g.f_back
            return fr
        f = f.f_back
    return None


def repo_caller(inner: tuple[str, int, str]) -> tuple[str, int, str] | None:
    """The program's frame that called the function of `inner` (the innermost repo frame
    on the current stack): the next repo frame outward."""
    f = sys._getframe(1)
    found = False
    while f is not None:
        if in_repo(f.f_code.co_filename):
            fr = (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
            if found:
                return fr
            found = fr == inner
        f = f.f_back
    return None


def frame_key(frame: tuple[str, int, str] | None) -> str:
    return f"{frame[0]}:{frame[1]}" if frame else "?"


def frame_dict(frame: tuple[str, int, str] | None) -> dict | None:
    if frame is None:
        return None
    return {"file": frame[0], "line": frame[1], "function": frame[2]}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


# A sparse tensor (a graph's features or adjacency) is read through a dense copy up to
# this many elements; a larger one keeps only its shape and dtype.
DENSE_LIMIT = 4_000_000
_dense: dict[int, tuple[weakref.ref, torch.Tensor]] = {}


def strided(t: torch.Tensor) -> torch.Tensor | None:
    """`t` itself, or for a sparse (non-strided) tensor a dense copy made once per tensor
    (a full-graph model receives the same sparse inputs at every forward); None when the
    copy would be too large."""
    if t.layout == torch.strided:
        return t
    if t.numel() > DENSE_LIMIT:
        return None
    hit = _dense.get(id(t))
    if hit is not None and hit[0]() is t:
        return hit[1]
    dense = t.detach().to_dense()
    if len(_dense) >= 8:
        _dense.clear()
    _dense[id(t)] = (weakref.ref(t), dense)
    return dense


def summarize(t: torch.Tensor, *, values: bool = True) -> dict:
    """Shape, dtype and value statistics; `values` adds a histogram for few distinct values."""
    out: dict = {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}
    dense = strided(t)
    if dense is None:
        return out
    t = dense.detach()
    n = t.numel()
    if n == 0 or t.dtype == torch.bool and not values:
        return out
    if t.is_complex():
        return out
    x = t.float() if t.dtype != torch.float64 else t
    finite = torch.isfinite(x)
    n_nonfinite = int(n - int(finite.sum()))
    out["nonfinite"] = n_nonfinite
    xf = x[finite] if n_nonfinite else x.reshape(-1)
    if xf.numel():
        out["min"] = float(xf.min())
        out["max"] = float(xf.max())
        out["mean"] = float(xf.mean())
        out["std"] = float(xf.std()) if xf.numel() > 1 else 0.0
    if values and n <= 2_000_000:
        flat = t.reshape(-1)
        if not t.is_floating_point() or bool((flat == flat.round()).all()):
            uniq, counts = torch.unique(flat, return_counts=True)
            if uniq.numel() <= 64:
                out["values"] = {_num(v): int(c) for v, c in zip(uniq.tolist(), counts.tolist())}
    return out


def _num(v: float | int) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


_PROJ: dict[int, torch.Tensor] = {}


def row_fingerprints(t: torch.Tensor, limit: int = 4096) -> list[str]:
    """A fingerprint per row (first dimension): equal rows give equal strings.

    Two fixed random projections in float64; unequal rows collide with negligible
    probability, and no numpy is needed.
    """
    t = strided(t)
    if t is None or t.dim() == 0 or t.shape[0] == 0:
        return []
    x = t.detach().reshape(t.shape[0], -1)[:limit]
    if not (
        x.is_floating_point()
        or x.dtype in (torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8, torch.bool)
    ):
        return []
    x = x.to(torch.float64)
    d = x.shape[1]
    proj = _PROJ.get(d)
    if proj is None:
        g = torch.Generator().manual_seed(1234 + d)
        proj = torch.randn(d, 2, generator=g, dtype=torch.float64)
        _PROJ[d] = proj
    fp = x @ proj
    return [f"{a:.10g}|{b:.10g}" for a, b in fp.tolist()]


def joint_rows(tensors: list[torch.Tensor]) -> torch.Tensor | None:
    """Each sample's inputs side by side: every tensor the forward received with as many
    rows as the first, flattened per row (a recommender's user ids repeat across a split;
    its (user, item) pairs are the samples)."""
    if not tensors or tensors[0].dim() == 0:
        return None
    n = tensors[0].shape[0]
    numeric = (torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8, torch.bool)
    parts = [
        d.detach().reshape(n, -1).to(torch.float64)
        for t in tensors[:4]
        if t.dim() >= 1
        and t.shape[0] == n
        and (t.is_floating_point() or t.dtype in numeric)
        and (d := strided(t)) is not None
    ]
    return torch.cat(parts, dim=1) if parts else None


def feature_moments(
    t: torch.Tensor, max_features: int = 64
) -> tuple[list[float], list[float], int] | None:
    """Per-feature sums and sums of squares over the batch (features = dim 1, channels for images)."""
    if not t.is_floating_point() or t.dim() < 2 or t.shape[0] == 0:
        return None
    dense = strided(t)
    if dense is None:
        return None
    x = dense.detach().double()
    if x.dim() > 2:
        # (B, C, ...) -> per channel over batch and spatial positions
        x = x.transpose(0, 1).reshape(x.shape[1], -1).T
    x = x[:, :max_features]
    if not bool(torch.isfinite(x).all()):
        return None
    return x.sum(0).tolist(), (x * x).sum(0).tolist(), int(x.shape[0])


def norm(t: torch.Tensor | None) -> float | None:
    if t is None:
        return None
    v = float(t.detach().double().norm())
    return _finite(v) if math.isfinite(v) else float("nan")


def tensors_in(obj, depth: int = 0) -> list[torch.Tensor]:
    """Tensors in a (nested) batch structure: tensor, tuple/list, dict, dataclass-like."""
    if isinstance(obj, torch.Tensor):
        return [obj]
    if depth > 3:
        return []
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in tensors_in(o, depth + 1)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in tensors_in(o, depth + 1)]
    return []


def map_tensors(obj, fn, depth: int = 0):
    """Rebuild a nested batch structure with `fn` applied to every tensor."""
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if depth > 3:
        return obj
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(map_tensors(o, fn, depth + 1) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(map_tensors(o, fn, depth + 1) for o in obj)
    if isinstance(obj, dict):
        return type(obj)((k, map_tensors(v, fn, depth + 1)) for k, v in obj.items())
    return obj


def batch_copy(t: torch.Tensor) -> torch.Tensor:
    """A detached copy of a batch tensor, tagged as coming from the batch."""
    c = t.detach().clone()
    c._ti_batch = True
    return c


def repo_frame_in_tb(tb) -> tuple[str, int, str] | None:
    """The innermost traceback entry inside the repo."""
    for f in reversed(tb):
        if in_repo(f.filename):
            return (relpath(f.filename), f.lineno, f.name)
    return None


def rows_of(x: torch.Tensor) -> torch.Tensor:
    """`x` as rows, float64: one per sample, or one per channel of a sample for inputs of
    three or more dimensions (a signal's channels, an image's planes)."""
    return x.detach().reshape(x.shape[0] * (x.shape[1] if x.dim() > 2 else 1), -1).double()
