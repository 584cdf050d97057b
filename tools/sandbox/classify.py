"""Classify how a run ended, from its exit status, the tracer's error, the socket guard's
log and the captured stderr, into one `Failure` with a one-line message and the
innermost frame inside the repo.

The order of the checks is the order of precedence: the sandbox's own limits first
(they explain whatever exception followed), then causes outside the code (network,
memory, data, modules, GPU), then the program's own exception.
"""

from __future__ import annotations

import re
import signal as signals
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from torch_investigate.tools.sandbox.models import Failure, Limits
from torch_investigate.tools.tracefile.records import ErrorInfo, Frame

NETWORK_PREFIX = "network access blocked by torch-investigate"
# Written by runtime/child.py when its own set-up or the tracer raised (exit code 70).
SETUP_FAILED_CODE = 70
SETUP_FAILED_LINE = "torch-investigate sandbox: the run could not start"

_OOM_TEXT = (
    "std::bad_alloc",
    "failed to map segment",
    "DefaultCPUAllocator: can't allocate memory",
    "Thread creation failed",
    "could not create thread",
    "Cannot allocate memory",
    "out of memory",
)
_GPU_TEXT = (
    "Torch not compiled with CUDA",
    "No CUDA GPUs",
    "Found no NVIDIA driver",
    "NCCL",
    "CUDA driver",
    "no CUDA-capable device",
)
# An exception about an accelerator this machine does not have: its message names one, or
# it was raised inside torch's accelerator modules (`torch.cuda.set_device` on a CPU build
# fails with an AttributeError about `torch._C._cuda_setDevice`).
_ACCELERATOR_WORDS = re.compile(r"cuda|\bgpus?\b|\bmps\b|\bxpu\b|accelerator|nccl", re.I)
_ACCELERATOR_MODULES = ("/torch/cuda/", "/torch/backends/cuda", "/torch/mps/", "/torch/xpu/")
_DATA_SUFFIXES = {
    ".csv", ".tsv", ".txt", ".json", ".jsonl", ".npy", ".npz", ".pt", ".pth", ".pkl",
    ".pickle", ".h5", ".hdf5", ".parquet", ".arrow", ".feather", ".png", ".jpg", ".jpeg",
    ".bmp", ".gif", ".tif", ".tiff", ".wav", ".flac", ".mp3", ".bin", ".idx", ".gz",
    ".zip", ".tar", ".mat", ".ckpt", ".safetensors", ".xml", ".yaml", ".yml",
}  # fmt: skip
_DATA_WORDS = ("data", "dataset", "images", "img", "corpus", "train", "val", "test", "label")
_TRACEBACK_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')
_EXCEPTION_LINE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<message>.*))?$")
_QUOTED_PATH = re.compile(r"""No such file or directory: ['"](?P<path>[^'"]+)['"]""")
_MODULE_NAME = re.compile(r"No module named ['\"](?P<name>[^'\"]+)['\"]")
# argparse's rejection: `usage: ...` then `prog: error: ...`, exit code 2
_ARGPARSE_ERROR = re.compile(r"^(?P<prog>[\w./-]+): error: (?P<message>.+)$", re.MULTILINE)
_SYNTAX_LOCATION = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+)|\((?P<file2>[^(),]+\.py), line (?P<line2>\d+)\)'
)
_DATA_ADVICE = (
    "the run sees your repo as it is on disk, with the folders around it read-only "
    "(`../data` resolves as it does for you); make the data first, or pass --cmd with the "
    "argument that points at it"
)


@dataclass
class RunError:
    """The program's uncaught exception, from the trace or else from stderr."""

    type: str
    message: str
    frames: list[Frame] = field(default_factory=list)


@dataclass
class RunEvidence:
    exit_code: int | None
    signal: int | None
    timed_out: bool
    output_limited: bool
    wall_s: float
    stderr: str
    run_dir: Path
    limits: Limits
    python: str
    error: ErrorInfo | None = None  # the uncaught exception, as the tracer recorded it
    network: list[dict[str, Any]] = field(default_factory=list)


def error_from_trace(error: ErrorInfo | None) -> RunError | None:
    if error is None or not error.type:
        return None
    return RunError(error.type, error.message, list(error.frames))


def error_from_stderr(stderr: str) -> RunError | None:
    """The last traceback printed on stderr."""
    start = stderr.rfind("Traceback (most recent call last):")
    if start < 0:
        return None
    frames: list[Frame] = []
    last: RunError | None = None
    for line in stderr[start:].splitlines()[1:]:
        frame = _TRACEBACK_FRAME.match(line)
        if frame:
            frames.append(
                Frame(file=frame["file"], line=int(frame["line"]), function=frame["func"].strip())
            )
            continue
        if line.startswith((" ", "\t")) or not line.strip():
            continue
        exc = _EXCEPTION_LINE.match(line.strip())
        if exc and frames:
            last = RunError(exc["type"].rsplit(".", 1)[-1], exc["message"] or "", frames)
            break
    return last


def _relative(path: str, run_dir: Path) -> str | None:
    p = Path(path)
    if not p.is_absolute():
        p = run_dir / p
    try:
        return p.resolve().relative_to(run_dir.resolve()).as_posix()
    except (ValueError, OSError):
        return None


def repo_frame(frames: list[Frame], run_dir: Path) -> Frame | None:
    """The innermost frame whose file is inside the run dir, its path made relative."""
    for frame in reversed(frames):
        rel = _relative(frame.file, run_dir)
        if rel is not None:
            return frame.model_copy(update={"file": rel})
    return None


def _where(frame: Frame | None) -> str:
    if frame is None:
        return ""
    func = f" ({frame.function})" if frame.function else ""
    return f" at {frame.file}:{frame.line}{func}"


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _signal_name(number: int) -> str:
    try:
        return signals.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _data_path(message: str) -> str | None:
    match = _QUOTED_PATH.search(message)
    path = match["path"] if match else None
    if path is None:
        return None
    lowered = path.lower()
    if Path(lowered).suffix in _DATA_SUFFIXES or any(w in lowered for w in _DATA_WORDS):
        return path
    return path if Path(lowered).suffix not in (".py", ".so", ".pyc") else None


def _failure(kind: str, message: str, error: RunError | None, frame: Frame | None, detail=""):
    return Failure(
        kind=kind,  # type: ignore[arg-type]
        message=message,
        file=frame.file if frame else None,
        line=frame.line if frame else None,
        function=frame.function if frame else None,
        exception_type=error.type if error else None,
        detail=detail,
    )


def _accelerator_error(error) -> bool:
    """The program's exception concerns a GPU (or other accelerator) and this machine has
    none: an environment failure, not a defect of the program."""
    if error is None or _has_accelerator():
        return False
    text = f"{error.type}: {error.message}"
    in_module = any(
        any(m in (f.file or "").replace("\\", "/") for m in _ACCELERATOR_MODULES)
        for f in error.frames
    )
    return in_module or bool(_ACCELERATOR_WORDS.search(text))


def _has_accelerator() -> bool:
    try:
        import torch
    except ImportError:  # the classifier runs beside the sandbox, where torch is installed
        return False
    return bool(torch.cuda.is_available())


def classify(ev: RunEvidence) -> Failure | None:
    """None for a clean exit (code 0), else the one failure that explains the run."""
    error = error_from_trace(ev.error) or error_from_stderr(ev.stderr)
    frame = repo_frame(error.frames, ev.run_dir) if error else None
    err_text = f"{error.type}: {error.message}" if error else ""
    tail = ev.stderr[-20_000:]

    if ev.timed_out:
        msg = (
            f"training command timed out after {ev.limits.wall_s:g} s "
            f"(the whole process group was killed){_where(frame)}"
        )
        return _failure("timeout", msg, error, frame, "stuck here when stopped" if frame else "")
    if ev.output_limited:
        msg = (
            f"training command wrote more than {ev.limits.output_kill_bytes} bytes of output "
            f"and was stopped{_where(frame)}"
        )
        return _failure("output_limit", msg, error, frame)
    if error and error.type == "CpuTimeLimit" or ev.signal == signals.SIGXCPU:
        msg = f"training command used its {ev.limits.cpu_s} s of CPU time and was stopped{_where(frame)}"
        return _failure("timeout", msg, error, frame, "CPU-time limit (RLIMIT_CPU)")
    if ev.exit_code == 0:
        return None  # a clean exit, even if the program caught a blocked download
    if ev.exit_code == SETUP_FAILED_CODE and SETUP_FAILED_LINE in ev.stderr:
        msg = (
            f"the sandbox or the tracer failed around the program ({_one_line(err_text, 160)}); "
            "this is a torch-investigate problem, not the repo's"
        )
        return _failure("interpreter", msg, error, frame, "set-up or tracer exception")

    def mentions(patterns: tuple[str, ...]) -> bool:
        # stderr counts only when the error itself is vague (or missing): a C++ abort
        # prints there, while a ValueError with "out of memory" in a log line is not one.
        vague = error is None or error.type in ("RuntimeError", "OSError", "SystemError")
        return any(p in err_text or (vague and p in tail) for p in patterns)

    if ev.network or NETWORK_PREFIX in err_text or NETWORK_PREFIX in tail:
        attempt = ev.network[0] if ev.network else {}
        net_frames = [
            Frame(file=f["file"], line=f.get("line") or 0, function=f.get("function") or "")
            for f in attempt.get("frames", [])
        ]
        frame = repo_frame(net_frames, ev.run_dir) or frame
        host = attempt.get("host") or "a remote host"
        port = f":{attempt['port']}" if attempt.get("port") else ""
        msg = (
            f"training command tried to reach {host}{port}{_where(frame)}; the sandbox has no "
            "network: download what it fetches beforehand and pass --cmd with the arguments "
            "that point at the local copy"
        )
        detail = f"{len(ev.network)} blocked attempt(s)" if ev.network else ""
        return _failure("network_blocked", msg, error, frame, detail)

    if (error and error.type == "MemoryError") or mentions(_OOM_TEXT):
        msg = (
            f"training command ran out of memory (limit {ev.limits.memory_mb} MB on top of "
            f"the interpreter){_where(frame)}"
        )
        return _failure("out_of_memory", msg, error, frame, _one_line(err_text))
    if ev.signal in (signals.SIGKILL, signals.SIGSEGV, signals.SIGBUS):
        name = _signal_name(ev.signal)
        msg = (
            f"training command was killed by {name}, probably out of memory under the "
            f"{ev.limits.memory_mb} MB limit"
        )
        return _failure("out_of_memory", msg, error, frame, f"signal {name}")

    if mentions(_GPU_TEXT) or _accelerator_error(error):
        msg = f"training command requires a CUDA GPU ({_one_line(err_text or 'CUDA error', 120)}){_where(frame)}"
        return _failure("gpu_required", msg, error, frame)

    if error and error.type in ("SyntaxError", "IndentationError", "TabError"):
        return _syntax_error(error, ev)
    if error and error.type == "ModuleNotFoundError":
        found = _MODULE_NAME.search(error.message)
        name = found["name"] if found else error.message
        local = _repo_package(ev.run_dir, name)
        if local is not None:
            advice = (
                f"the repo has it at {local}, which is not on the import path of this command; "
                f"pass --cmd with PYTHONPATH set (e.g. --cmd 'PYTHONPATH={Path(local).parent.as_posix() or '.'} python ...')"
            )
        else:
            advice = "pass --python with the interpreter of the repo's own environment"
        msg = f"training command needs module '{name}', which {ev.python} cannot import{_where(frame)}; {advice}"
        return _failure("missing_module", msg, error, frame)

    if error and error.type in ("FileNotFoundError", "IsADirectoryError", "NotADirectoryError"):
        path = _data_path(error.message)
        if path is not None:
            msg = (
                f"training command could not find data '{path}' ({error.type}){_where(frame)}; "
                + _DATA_ADVICE
            )
            return _failure("missing_data", msg, error, frame)
    if error and "Dataset not found" in error.message:
        msg = f"training command could not find its dataset{_where(frame)}; {_DATA_ADVICE}"
        return _failure("missing_data", msg, error, frame, _one_line(err_text))

    if error and "File too large" in error.message:
        msg = (
            f"training command wrote a file larger than {ev.limits.file_size_mb} MB{_where(frame)}"
        )
        return _failure("output_limit", msg, error, frame)

    rejected = _ARGPARSE_ERROR.search(tail) if ev.exit_code == 2 else None
    if rejected and "usage:" in tail:
        msg = (
            f"the training command's argument parser refused it: {rejected['prog']}: error: "
            f"{_one_line(rejected['message'], 200)}; pass --cmd with the arguments it needs"
        )
        return _failure("bad_arguments", msg, error, frame)
    if ev.signal is not None:
        name = _signal_name(ev.signal)
        return _failure("killed", f"training command was killed by {name}", error, frame)
    if error:
        msg = (
            f"training command raised {error.type}: {_one_line(error.message, 160)}{_where(frame)}"
        )
        return _failure("user_exception", msg, error, frame)
    msg = f"training command exited with code {ev.exit_code}"
    return _failure("user_exception", msg, None, None, _one_line(tail[-400:]))


def _syntax_error(error: RunError, ev: RunEvidence) -> Failure:
    """A file that does not parse: named with its line, whichever module imported it."""
    found = _SYNTAX_LOCATION.search(error.message) or _SYNTAX_LOCATION.search(ev.stderr[-4000:])
    path = (found["file"] or found["file2"]) if found else None
    file = (_relative(path, ev.run_dir) or Path(path).name) if path else None
    line = int(found["line"] or found["line2"]) if found else None
    head = error.message.split(" (", 1)[0]
    where = f"{file}:{line}" if file else "a repo file"
    msg = f"{where} does not parse ({error.type}: {_one_line(head, 120)}): nothing of the training ran"
    return Failure(
        kind="syntax_error", message=msg, file=file, line=line, exception_type=error.type
    )


def _repo_package(run_dir: Path, module: str) -> str | None:
    """Where the repo holds the module a command could not import (a src layout, a
    subfolder), relative to the repo; None when the repo does not have it."""
    parts = module.split(".")
    try:
        folders = sorted(p for p in run_dir.iterdir() if p.is_dir())
    except OSError:
        return None
    for base in [run_dir, *folders]:
        target = base.joinpath(*parts)
        if (target / "__init__.py").is_file() or target.with_suffix(".py").is_file():
            # at the repo's top the command still misses it when its script lives in a
            # subfolder (Python puts the script's folder on the path, not the repo's)
            return target.relative_to(run_dir).as_posix()
    return None
