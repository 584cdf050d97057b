"""Where in the repo a hooked object was built: the innermost repo frame outside its own
__init__ chain."""

from __future__ import annotations

import sys

from ..tensors import in_repo, relpath


def construction_frame(obj):
    """Where an object was built: the innermost repo frame outside its own __init__ chain.

    Called directly from a patched __init__ (frame 2 is that __init__'s caller)."""
    return next((fr for fr, _ in _repo_frames(sys._getframe(2), obj)), None)


def construction_point(obj):
    """(construction_frame's frame, the instruction it is at: two objects built on one
    line are told apart). Called directly from a patched __init__."""
    return next(_repo_frames(sys._getframe(2), obj), (None, None))


def caller_of_construction(obj):
    """The repo frame that called the one construction_frame names (a helper that
    builds several loaders: each of its calls), and the instruction it is at there (two
    calls on one line). Called directly from a patched __init__, as construction_frame
    is."""
    frames = _repo_frames(sys._getframe(2), obj)
    next(frames, None)
    return next(frames, (None, None))


def _repo_frames(f, obj):
    """(repo frame, instruction offset) from `f` outward, the object's own __init__
    chain left out."""
    while f is not None:
        own_init = f.f_code.co_name == "__init__" and f.f_locals.get("self") is obj
        fr = None if own_init else repo_frame_of(f)
        if fr is not None:
            yield fr, f.f_lasti
        f = f.f_back


def repo_frame_of(f):
    if in_repo(f.f_code.co_filename):
        return (relpath(f.f_code.co_filename), f.f_lineno, f.f_code.co_name)
    return None
