"""A live status line while the chat works: `thinking... 3 s` while the model is asked,
`running run_stage_checks(stage=4)... 12 s` while a tool runs, redrawn in place every
half second on a terminal (plain carriage returns, so a dumb terminal shows it too).
Permanent lines (one per tool call) are printed above it.

    with LiveStatus(console) as status:
        status.running("run_stage_checks(stage=4)")
        status.line("run_stage_checks(stage=4): 6 items, 1 failed, candidates C3")
        status.thinking()

Off a terminal (a pipe, a log) there is no status line; permanent lines still print.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from rich.console import Console

TICK_S = 0.5


class LiveStatus:
    def __init__(self, console: Console, live: bool | None = None) -> None:
        self.console = console
        self.live = console.is_terminal if live is None else live
        self._lock = threading.Lock()
        self._phase = "thinking"
        self._since = time.monotonic()
        self._shown = 0  # characters of the status line on screen
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LiveStatus:
        if self.live:
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2 * TICK_S)
        with self._lock:
            self._clear()

    def thinking(self) -> None:
        self._set("thinking")

    def running(self, what: str) -> None:
        self._set(f"running {what}")

    def line(self, text: str, style: str = "dim") -> None:
        """A permanent line; the status line comes back below it (at the next phase or
        tick)."""
        with self._lock:
            self._clear()
            self.console.print(text, style=style, markup=False, highlight=False)

    # ---- drawing (under the lock) ------------------------------------------------------

    def _set(self, phase: str) -> None:
        with self._lock:
            self._phase, self._since = phase, time.monotonic()
            self._draw()

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            with self._lock:
                self._draw()

    def _draw(self) -> None:
        if not self.live or self._stop.is_set():
            return
        seconds = time.monotonic() - self._since
        text = f"{self._phase}... {seconds:.0f} s"[: max(10, self.console.width - 1)]
        self._write("\r" + text.ljust(self._shown))
        self._shown = len(text)

    def _clear(self) -> None:
        if self._shown:
            self._write("\r" + " " * self._shown + "\r")
            self._shown = 0

    def _write(self, text: str) -> None:
        self.console.file.write(text)
        self.console.file.flush()
