"""Where in the repo a hooked object was built: the innermost repo frame outside its own
__init__ chain."""

from __future__ import annotations

import sys

from ..tensors import in_repo, relpath


def construction_frame(obj):
    """Where an object was built: the innermost repo frame outside its own __init__ chain.

    Called directly from a patched __init__ (frame 2 is that __init__'s caller)."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name == "__init__" and f.f_locals.get("self") is obj:
            f = f.f_back
            continue
        fr = repo_frame_of(f)
        if fr is not None:
            return fr
        f = f.f_back
    return None


def repo_frame_of(f):
    if in_repo(f.f_code.co_filename):
        return (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
    return None


def caller_of_construction(obj):
    """The repo frame that called the one construction_frame names (a helper that
    builds several loaders: each of its calls), and the instruction it is at there (two
    calls on one line). Called directly from a patched __init__, as construction_frame
    is."""
    f = sys._getframe(2)
    seen = 0
    while f is not None:
        if not seen and f.f_code.co_name == "__init__" and f.f_locals.get("self") is obj:
            f = f.f_back
            continue
        fr = repo_frame_of(f)
        if fr is not None:
            seen += 1
            if seen == 2:
                return fr, f.f_lasti
        f = f.f_back
    return None, None
