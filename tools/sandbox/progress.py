"""Progress of runs in flight, read on the host from the tracer's progress files
(tools/trace/progress.py writes them).

One thread per Sandbox polls the progress file of every run in flight and hands each
run's callback its latest `RunProgress`, also when nothing changed (a display needs the
ticks to show elapsed time) and before the tracer's first write (phase "starting").
The file is written by code the repo controls: it is read bounded and validated.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

PROGRESS_SUFFIX = ".progress"  # beside the trace JSON: trace.json.progress
MAX_BYTES = 4096


class RunProgress(BaseModel):
    steps: int = Field(0, ge=0)  # optimizer steps so far
    forwards: int = Field(0, ge=0)  # model forwards so far
    # starting: the tracer has not written yet (the server is busy, the program sets up);
    # train: steps being traced; fast_forward: one batch per epoch; eval: no-grad forwards
    phase: Literal["starting", "train", "fast_forward", "eval"] = "starting"


ProgressCallback = Callable[[RunProgress], None]


def progress_path(trace_path: Path) -> Path:
    return trace_path.with_name(trace_path.name + PROGRESS_SUFFIX)


def read_progress(path: Path) -> RunProgress | None:
    """The progress in `path`, or None when there is none (yet) or it is not valid."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(raw) > MAX_BYTES:
        return None
    try:
        return RunProgress.model_validate(json.loads(raw))
    except (ValueError, ValidationError):
        return None


class ProgressPoller:
    """Calls each watched run's callback every `interval_s` with its latest progress.

    The thread runs only while something is watched. A callback that raises is dropped
    (a broken display must not stop the runs or the other displays).
    """

    def __init__(self, interval_s: float = 1.0) -> None:
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._watches: dict[int, tuple[Path, ProgressCallback]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()

    @contextmanager
    def watching(self, path: Path, callback: ProgressCallback | None) -> Iterator[None]:
        """Poll `path` for `callback` inside the block (nothing when callback is None)."""
        if callback is None:
            yield
            return
        watch = self.watch(path, callback)
        try:
            yield
        finally:
            self.unwatch(watch)

    def watch(self, path: Path, callback: ProgressCallback) -> int:
        with self._lock:
            watch = next(self._ids)
            self._watches[watch] = (Path(path), callback)
            if self._thread is None and not self._closed.is_set():
                self._thread = threading.Thread(target=self._loop, name="ti-progress", daemon=True)
                self._thread.start()
        return watch

    def unwatch(self, watch: int) -> None:
        with self._lock:
            self._watches.pop(watch, None)

    @property
    def polling(self) -> bool:
        with self._lock:
            return self._thread is not None

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._closed.wait(self.interval_s):
            with self._lock:
                if not self._watches:
                    self._thread = None  # a later watch starts a new thread
                    return
                watches = list(self._watches.items())
            for watch, (path, callback) in watches:
                try:
                    callback(read_progress(path) or RunProgress())
                except Exception:  # noqa: BLE001 - see the class docstring
                    self.unwatch(watch)
        with self._lock:
            self._thread = None
