"""The attribute names libraries own, read from the installed libraries themselves.

An attribute the renamer cannot place on a repo object keeps its spelling when a library
object could own it: what `dir()` lists on the classes a repo's imports reach (two module
levels down: `torch` reaches `torch.optim.lr_scheduler.StepLR`), and the instance
attributes their `__init__`s assign (`self.weight = ...` in `nn.Linear`), read from the
libraries' source with `ast`. Computed once per installed environment and library path:
the answers are kept under $XDG_CACHE_HOME/torch-investigate/rename/, keyed by the Python
version and every installed distribution's version (importing torch to ask again costs
seconds per process).
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import importlib.metadata
import inspect
import json
import os
import sys
import types
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

# Reached by every repo that trains with torch, whatever it imports by name.
ALWAYS = (
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.utils", "torch.optim",
    "torch.optim.lr_scheduler", "torch.utils.data", "torch.autograd", "torch.amp", "numpy",
)  # fmt: skip
BUILTIN_TYPES = (
    str, bytes, bytearray, int, float, complex, bool, list, tuple, dict, set, frozenset,
    object, type, range, slice, property, staticmethod, classmethod, super, memoryview,
    enumerate, zip, map, filter, BaseException, Exception, types.ModuleType,
    types.FunctionType, types.MethodType, types.SimpleNamespace,
)  # fmt: skip


def library_attributes(paths: Iterable[str]) -> frozenset[str]:
    """Attribute names owned by the libraries at these dotted import paths (modules or
    objects in them), plus the builtin types' and the always-reached libraries'. A module
    contributes its own names and its public classes' (not its submodules': `torch` does
    not bring `torch.distributed`'s vocabulary)."""
    names: set[str] = set(_builtin_names())
    for path in sorted({*ALWAYS, *paths}):
        names.update(_stored("reachable", path, lambda p: sorted(_reachable(p))))
    return frozenset(names)


def class_attributes(path: str) -> frozenset[str] | None:
    """The attributes a library class at `path` has (its MRO's `dir` and the instance
    attributes its methods assign), or None when `path` is not an importable class."""

    def compute(p: str) -> list[str] | None:
        obj = resolve(p)
        return sorted(_class_names(obj)) if inspect.isclass(obj) else None

    found = _stored("class", path, compute)
    return frozenset(found) if found is not None else None


def is_namespace(path: str) -> bool:
    """Whether the library object at `path` is a module or a class (whose attributes are
    its own, never a repo's)."""
    return bool(_stored("namespace", path, lambda p: inspect.ismodule(obj := resolve(p))
                        or inspect.isclass(obj)))  # fmt: skip


# ---- the answers kept between processes -----------------------------------------------------

_MEMORY: dict[str, object] = {}


def _stored(kind: str, path: str, compute: Callable[[str], object]):  # noqa: ANN202
    key = f"{kind}:{path}"
    if key not in _MEMORY:
        disk = _disk()
        if key not in disk:
            disk[key] = compute(path)
            _save(disk)
        _MEMORY[key] = disk[key]
    return _MEMORY[key]


@cache
def _cache_file() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    versions = sorted(
        f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()
    )
    digest = hashlib.sha256("\n".join([sys.version, *versions]).encode()).hexdigest()[:16]
    return base / "torch-investigate" / "rename" / f"libraries-{digest}.json"


_DISK: dict[str, object] | None = None


def _disk() -> dict[str, object]:
    global _DISK
    if _DISK is None:
        try:
            _DISK = json.loads(_cache_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _DISK = {}
    return _DISK


def _save(data: dict[str, object]) -> None:
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only home: computed again next time


@cache
def resolve(path: str) -> object | None:
    """The object at a dotted path: the longest importable module prefix, then
    attributes. None when nothing imports (the library is not installed)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001 - a missing or broken library is simply unknown
            continue
        for attr in parts[cut:]:
            try:
                obj = getattr(obj, attr)
            except Exception:  # noqa: BLE001
                return None
        return obj
    return None


@cache
def _builtin_names() -> frozenset[str]:
    names = set(dir(builtins))
    for t in BUILTIN_TYPES:
        names |= set(dir(t))
    return frozenset(names)


@cache
def _reachable(path: str) -> frozenset[str]:
    obj = resolve(path)
    if obj is None:
        return frozenset()
    names: set[str] = set()
    if inspect.isclass(obj):
        return frozenset(_class_names(obj))
    if not isinstance(obj, types.ModuleType):
        return frozenset(_safe_dir(obj))
    package = obj.__name__.split(".")[0]
    names |= set(_safe_dir(obj))
    for key, value in list(vars(obj).items()):
        if (
            not key.startswith("_")
            and inspect.isclass(value)
            and (value.__module__ or "").split(".")[0] == package
        ):
            names |= _class_names(value)
    return frozenset(names)


@cache
def _class_names(cls: type) -> frozenset[str]:
    names: set[str] = set(_safe_dir(cls))
    for klass in getattr(cls, "__mro__", (cls,)):
        if klass is object:
            continue
        try:
            source = inspect.getsourcefile(klass)
        except (TypeError, OSError):
            source = None
        if source:
            names |= _instance_attributes(source)
    return frozenset(names)


@cache
def _instance_attributes(source: str) -> frozenset[str]:
    """Every `self.X` a file's code assigns (any class in it: a superset is safe)."""
    try:
        tree = ast.parse(Path(source).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    names = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            names.add(node.attr)
    return frozenset(names)


def _safe_dir(obj: object) -> list[str]:
    try:
        return dir(obj)
    except Exception:  # noqa: BLE001
        return []
