"""The progress of `investigate PATH` on stderr: one stream of stage lines, runs of the
training path, heartbeats and the LLM's refused calls. Nothing goes to stdout.

    progress = Progress.open(quiet, llm=...)           # None with --quiet
    with Session(path, options, on_run=progress.on_run) as session:
        progress.follow(session.protocol)
        investigate(session, policy, on_event=progress.after_call, on_start=progress.before_call)
    progress.close()

When stderr is not a terminal (CI logs, pipes): plain lines for a stage's start and its
verdict, a run's start and end, and a heartbeat at most every `heartbeat_s` seconds per
run (10, or $TI_HEARTBEAT_S). On a terminal (rich): stages and finished runs are
persistent lines; the heartbeats of the runs in flight share one status line that
updates in place. Every line is one line of under 100 characters (fewer on a narrower
terminal, or $COLUMNS): a run is called by its short name, the plot legend's
(render/_interventions.py), and what does not fit is cut between words with "…" (the
report says it in full).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Any, TextIO

from torch_investigate.agent.core.runs import RunEvent
from torch_investigate.agent.llm.progress import llm_line
from torch_investigate.agent.render._interventions import short_name
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.protocol import Protocol
    from torch_investigate.agent.core.toolbox import ToolResult

MAX_WIDTH = 99  # a progress line is under 100 characters, whatever the terminal
HEARTBEAT_S = 10.0
RUN_INDENT = 2
ELLIPSIS = "…"

VERDICT_STYLE = {
    "coherent": "green",
    "defect": "bold red",
    "inconclusive": "yellow",
    "not_examined": "dim",
}
PHASE_WORDS = {"fast_forward": "fast-forwarding", "eval": "evaluating"}


def one_line(text: str, width: int, indent: int = 0) -> str:
    """`text` on one line of at most `width` characters, indent included: cut between
    words with an ellipsis when too long (within a word only when one word is longer)."""
    flat = " ".join(text.split())
    room = width - indent
    if len(flat) > room:
        head = flat[: room - 1]
        cut = head.rsplit(" ", 1)[0] if " " in head else head
        flat = cut.rstrip(" ,;:-") + ELLIPSIS
    return " " * indent + flat


def run_name(event: RunEvent) -> str:
    """The run's short name, the plot legend's: as written, "fixed batch, lr x10", probe 2."""
    if "probe" in event.interventions:
        return event.label.replace("-", " ")
    items = [
        key if value is True else f"{key}={value}" for key, value in event.interventions.items()
    ]
    return short_name(items, event.label)


def heartbeat(event: RunEvent, width: int = MAX_WIDTH - RUN_INDENT) -> str:
    """One heartbeat: `as written: 120/200 steps, 14 s` (`starting` before the first step)."""
    if event.phase == "starting":
        return run_line(event, f"starting, {event.seconds:.0f} s", width)
    if event.steps <= event.budget:
        steps = f"{event.steps}/{_steps(event.budget)}"
    else:  # the baseline fast-forwards past its budget to reach the evaluation
        steps = f"{event.steps} steps ({event.budget} traced)"
    phase = f", {PHASE_WORDS[event.phase]}" if event.phase in PHASE_WORDS else ""
    return run_line(event, f"{steps}{phase}, {event.seconds:.0f} s", width)


def run_line(event: RunEvent, rest: str, width: int = MAX_WIDTH - RUN_INDENT) -> str:
    """`name: rest` within `width`: the name is shortened, never the status after it."""
    room = max(width - len(rest) - 2, 8)
    return f"{one_line(run_name(event), room)}: {rest}"


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def _width() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    return min(columns, MAX_WIDTH) if columns >= 20 else MAX_WIDTH


class PlainSink:
    """Lines for a log: no colour, no cursor movement, no status line."""

    def __init__(self, stream: TextIO, width: int) -> None:
        self.stream = stream
        self.width = width

    def line(self, text: str, style: str = "", indent: int = 0) -> None:
        self.stream.write(one_line(text, self.width, indent) + "\n")
        self.stream.flush()

    def status(self, text: str | None) -> None:
        pass

    def close(self) -> None:
        pass


class RichSink:
    """A terminal: styled persistent lines, and a status line that updates in place."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console

        self.console = Console(file=stream, highlight=False)
        self._status: Any = None

    @property
    def width(self) -> int:
        return min(self.console.width, MAX_WIDTH)

    def line(self, text: str, style: str = "", indent: int = 0) -> None:
        from rich.text import Text

        line = one_line(text, self.width, indent)  # rich must not fold it
        self.console.print(Text(line, style=style), soft_wrap=True)

    def status(self, text: str | None) -> None:
        if text is None:
            self.close()
            return
        text = one_line(text, self.width - 2)  # beside the spinner
        if self._status is None:
            self._status = self.console.status(text, spinner="dots")
            self._status.start()
        else:
            self._status.update(text)

    def close(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


class Progress:
    """Hears tool calls (`before_call`, `after_call`) and runs (`on_run`, from the runs'
    threads) and prints them as one stream; every entry point holds one lock."""

    def __init__(
        self, sink: PlainSink | RichSink, *, llm: bool = False, heartbeat_s: float = HEARTBEAT_S
    ) -> None:
        self.sink = sink
        self.live = isinstance(sink, RichSink)
        self.llm = llm
        self.heartbeat_s = heartbeat_s
        self.protocol: Protocol | None = None
        self._lock = threading.RLock()
        self._announced: set[Stage] = set()
        self._closing: Stage | None = None
        self._skipped: set[Stage] = set()  # stages shown as not examined
        self._flight: dict[str, RunEvent] = {}  # the latest event of each run in flight
        self._beat: dict[str, float] = {}  # seconds of each run's last heartbeat line

    @classmethod
    def open(
        cls, quiet: bool, *, llm: bool = False, stream: TextIO | None = None
    ) -> Progress | None:
        if quiet:
            return None
        stream = stream or sys.stderr
        try:
            heartbeat_s = float(os.environ.get("TI_HEARTBEAT_S", HEARTBEAT_S))
        except ValueError:
            heartbeat_s = HEARTBEAT_S
        tty = hasattr(stream, "isatty") and stream.isatty()
        sink = RichSink(stream) if tty else PlainSink(stream, _width())
        return cls(sink, llm=llm, heartbeat_s=max(heartbeat_s, 0.5))

    def follow(self, protocol: Protocol) -> None:
        """The protocol whose stages the lines name (set once the session exists)."""
        self.protocol = protocol

    def close(self) -> None:
        with self._lock:
            self._flight.clear()
            self.sink.close()

    # ---- stages and tool calls ---------------------------------------------------------

    def before_call(self, name: str, arguments: dict[str, Any]) -> None:
        with self._lock:
            if self.protocol is None:
                return
            current = self.protocol.current
            if name == "advance_stage":
                self._closing = current
            elif name == "run_stage_checks" and current is not None:
                if (
                    str(arguments.get("stage")) == str(int(current))
                    and current not in self._announced
                ):
                    self._announced.add(current)
                    self.sink.line(f"stage {int(current)} ({current.title}): checking")

    def after_call(self, name: str, arguments: dict[str, Any], result: ToolResult) -> None:
        with self._lock:
            if name == "advance_stage" and result.ok and self._closing is not None:
                self._stage_line(self._closing)
                self._closing = None
                for stage, closed in (self.protocol.stages if self.protocol else {}).items():
                    if closed.verdict == "not_examined" and stage not in self._skipped:
                        self._skipped.add(stage)
                        self._stage_line(stage)
            line = llm_line(name, result) if self.llm else None
            if line is not None:
                self.sink.line(line[0], line[1], RUN_INDENT)

    def _stage_line(self, stage: Stage) -> None:
        assert self.protocol is not None
        result = self.protocol.stages[stage]
        verdict = (result.verdict or "open").replace("_", " ")
        reason = (result.reason or "").removeprefix("not examined: ")
        reason = f" - {reason}" if reason else ""
        style = VERDICT_STYLE.get(result.verdict or "", "")
        self.sink.line(f"stage {int(stage)} ({stage.title}): {verdict}{reason}", style)

    # ---- runs ----------------------------------------------------------------------------

    def on_run(self, event: RunEvent) -> None:
        with self._lock:
            if event.kind == "started":
                self._flight[event.label] = event
                self._beat[event.label] = 0.0
                if not self.live:
                    started = run_line(event, f"started ({_steps(event.budget)})", self._room)
                    self.sink.line(started, "", RUN_INDENT)
            elif event.kind == "progress":
                if event.label not in self._flight:  # a late tick of a finished run
                    return
                self._flight[event.label] = event
                if not self.live and event.seconds - self._beat[event.label] >= self.heartbeat_s:
                    self._beat[event.label] = event.seconds
                    self.sink.line(heartbeat(event, self._room), "dim", RUN_INDENT)
            else:
                self._flight.pop(event.label, None)
                self._finished(event)
            if self.live:
                # the runs in flight share the status line: each gets its part of it
                share = max((self.sink.width - 2) // max(len(self._flight), 1) - 2, 30)
                beats = [heartbeat(e, share) for e in self._flight.values()]
                self.sink.status("; ".join(beats) if beats else None)

    def _finished(self, event: RunEvent) -> None:
        ok = event.status in ("completed", "stopped")
        rest = f"{event.status}, {_steps(event.steps)}, {event.seconds:.1f} s"
        self.sink.line(run_line(event, rest, self._room), "dim" if ok else "yellow", RUN_INDENT)

    @property
    def _room(self) -> int:
        """The width a run's line has after its indent."""
        return self.sink.width - RUN_INDENT
