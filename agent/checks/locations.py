"""Report locations for what the run saw: a runtime frame with its enclosing symbol, the
line that assigns an attribute, a class's __init__, the model's forward, the training
loader, and where a static suspicion of some categories points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.tools.records import Finding, Location
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def where(session: Session, frame: Frame | None) -> Location | None:
    """A runtime frame as a report location, with its enclosing symbol from the index."""
    if frame is None:
        return None
    return Location(
        file=frame.file,
        line=frame.line,
        symbol=session.index.enclosing_symbol(frame.file, frame.line),
    )


def attribute_location(session: Session, cls: str, attribute: str) -> Location | None:
    """Where `self.<attribute>` is assigned in `cls.__init__` (or anywhere in the class)."""
    import re

    base = attribute.split("[")[0].split(".")[0]
    pattern = re.compile(rf"\bself\.{re.escape(base)}\s*(:[^=]*)?=(?!=)")
    syms = [s for s in session.index.symbols if s.qualname in (f"{cls}.__init__", cls)]
    for sym in on_path_first(session, syms):
        lines = session.index.lines(sym.file)
        for n in range(sym.line_start, min(sym.line_end, len(lines)) + 1):
            if pattern.search(lines[n - 1]):
                return Location(
                    file=sym.file, line=n, symbol=session.index.enclosing_symbol(sym.file, n)
                )
    return None


def on_path_first(session: Session, items: list, file_of=lambda x: x.file) -> list:
    """`items` with those in files the run executed or imported first (a repo of several
    scripts defines a `Model` in each; the one this run built is in a file it ran)."""
    ran_files = getattr(session, "ran_files", None)  # a bare index (tests, static-only) has none
    ran = ran_files() if ran_files is not None else set()
    return sorted(items, key=lambda x: file_of(x) not in ran) if ran else items


def init_location(session: Session, cls: str) -> Location | None:
    syms = [s for s in session.index.symbols if s.qualname == f"{cls}.__init__"]
    sym = next(iter(on_path_first(session, syms)), None)
    return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname) if sym else None


def static_in(session: Session, *categories: str) -> list[Finding]:
    return on_path_first(session, [f for f in session.static_findings if f.category in categories])


def first_static_location(session: Session, *categories: str) -> Location | None:
    for f in static_in(session, *categories):
        if f.file:
            return Location(file=f.file, line=f.line, symbol=f.symbol)
    return None


def loader_location(session: Session, t: Trace) -> Location | None:
    ld = t.train_loader()
    return where(session, ld.frame) if ld is not None else None


def model_location(session: Session, t: Trace) -> Location | None:
    """The model's forward method, from the index (the class the trace saw)."""
    if not t.models:
        return None
    name = t.models[0].class_
    syms = [s for s in session.index.find_symbols("forward") if s.qualname == f"{name}.forward"]
    sym = next(iter(on_path_first(session, syms)), None)
    if sym is not None:
        return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname)
    return where(session, t.models[0].frame)
