"""The records that cross back from a sandboxed run: limits in, results and failures out."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from torch_investigate.tools.tracefile.trace import Trace

FailureKind = Literal[
    "timeout",
    "out_of_memory",
    "network_blocked",
    "missing_data",
    "missing_module",
    "gpu_required",
    "syntax_error",  # a repo file does not parse: nothing of the program ran
    "bad_arguments",  # the program's argument parser refused the command line
    "user_exception",
    "interpreter",
    "output_limit",
    "killed",
]


class Limits(BaseModel):
    wall_s: float = 120.0  # the one default of a run's wall-clock limit (DEFAULT_TIMEOUT_S)
    cpu_s: int = 600
    memory_mb: int = 6144  # address space on top of the warm interpreter (torch imported)
    file_size_mb: int = 512  # largest file the program may write
    open_files: int = 1024
    output_bytes: int = 200_000  # kept of each of stdout and stderr (head and tail)
    output_kill_bytes: int = 20_000_000  # stdout + stderr beyond this stops the run


class Failure(BaseModel):
    kind: FailureKind
    message: str  # one line, says what happened and what to do
    file: str | None = None  # innermost frame inside the repo, relative to the run dir
    line: int | None = None
    function: str | None = None
    exception_type: str | None = None
    detail: str = ""


class RunResult(BaseModel):
    run_id: str
    label: str
    exit_code: int | None  # None when the process was ended by a signal
    signal: int | None
    timed_out: bool
    wall_s: float
    stdout: str  # capped, with a "[... N bytes cut]" note
    stderr: str
    trace_path: Path | None  # the tracer's JSON, when it was written (also after a crash)
    # the trace, read and validated once here (None: none written, or see trace_error)
    trace: Trace | None = Field(default=None, exclude=True, repr=False)
    trace_error: str = ""  # why there is no trace
    failure: Failure | None
    run_dir: Path
    isolation: str = ""  # bwrap | unshare | socket-guard
    warm: bool = False  # served by the warm fork server
    server_pid: int | None = None  # pid of the process that forked the run (in its namespace)

    @property
    def ok(self) -> bool:
        return self.failure is None
