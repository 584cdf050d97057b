"""Ctrl-C, SIGTERM and SIGHUP: stop at once and leave nothing behind.

A run of the training path lives in a sandbox process with a session of its own, so the
signal reaches only us. The handler stops every sandbox's processes first (each run in
flight then returns at once instead of running on to its wall-clock limit), then raises
`Interrupted`, which unwinds every `with` like any exception: workspaces, sandbox folders
and bisect's worktrees are removed on the way out. It is a SystemExit, not a
KeyboardInterrupt, so nothing between here and `main` (typer turns KeyboardInterrupt into
a bare exit 130) swallows it, and `except Exception` never catches it.
"""

from __future__ import annotations

import signal

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(SystemExit):
    """A signal stopped the command; `code` is 128 + the signal's number (130 for Ctrl-C)."""

    def __init__(self, number: int) -> None:
        super().__init__(128 + number)
        self.signal = number

    @property
    def message(self) -> str:
        return (
            "interrupted" if self.signal == signal.SIGINT else "terminated; temporary files removed"
        )


def _on_signal(number: int, _frame: object) -> None:
    for sig in SIGNALS:  # one signal is enough: the cleanup below is bounded (a few seconds)
        signal.signal(sig, signal.SIG_IGN)
    from torch_investigate.tools.sandbox.sandbox import stop_all

    stop_all()
    raise Interrupted(number)


def install(*, sigint: bool = True) -> None:
    """Handle the signals (SIGINT only when `sigint`: the chat reads Ctrl-C itself). A
    SIGINT the shell already ignores (a job started with `&` by a script) stays ignored."""
    for sig in SIGNALS:
        if sig == signal.SIGINT and (not sigint or signal.getsignal(sig) == signal.SIG_IGN):
            continue
        signal.signal(sig, _on_signal)
