"""Failure classification from exit status, trace JSON, guard log and stderr (no processes),
the scrubbed environment, and the head/tail output cap."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from torch_investigate.tools.sandbox.classify import RunEvidence, classify, error_from_stderr
from torch_investigate.tools.sandbox.environment import is_secret, sandbox_env
from torch_investigate.tools.sandbox.models import Limits
from torch_investigate.tools.sandbox.runtime.capture import HeadTail
from torch_investigate.tools.tracefile.records import ErrorInfo

RUN_DIR = Path("/sandbox/runs/001/repo")


def evidence(**kw) -> RunEvidence:
    base = dict(
        exit_code=1,
        signal=None,
        timed_out=False,
        output_limited=False,
        wall_s=1.0,
        stderr="",
        run_dir=RUN_DIR,
        limits=Limits(),
        python="/venv/bin/python",
    )
    base.update(kw)
    return RunEvidence(**base)


def trace_error(type_: str, message: str, file: str = "train.py", line: int = 5) -> ErrorInfo:
    frames = [
        {"file": "/rt/_torch_investigate_trace/runner.py", "line": 20, "function": "run_traced"},
        {"file": str(RUN_DIR / file), "line": line, "function": "main"},
        {"file": "/venv/lib/torch/nn/modules/module.py", "line": 1, "function": "_call_impl"},
    ]
    return ErrorInfo.model_validate({"type": type_, "message": message, "frames": frames})


def test_clean_exit_is_no_failure() -> None:
    assert classify(evidence(exit_code=0)) is None


def test_timeout_wins_and_says_the_group_was_killed() -> None:
    f = classify(evidence(timed_out=True, error=trace_error("WallClockLimit", "stopped")))
    assert f is not None and f.kind == "timeout"
    assert f.message.startswith(
        "training command timed out after 120 s (the whole process group was killed)"
    )
    assert (f.file, f.line, f.function) == ("train.py", 5, "main")


@pytest.mark.parametrize(
    "stderr",
    [
        "terminate called after throwing an instance of 'std::bad_alloc'",
        "RuntimeError: DefaultCPUAllocator: can't allocate memory: you tried to allocate 8 GB",
        "libgomp: Thread creation failed: Resource temporarily unavailable",
        "OpenBLAS: could not create thread",
        "ImportError: failed to map segment from shared object",
    ],
)
def test_out_of_memory_from_stderr(stderr: str) -> None:
    f = classify(evidence(exit_code=None, signal=signal.SIGABRT, stderr=stderr))
    assert f is not None and f.kind == "out_of_memory"


def test_memory_error_and_kill_signals_are_out_of_memory() -> None:
    f = classify(evidence(error=trace_error("MemoryError", "")))
    assert f is not None and f.kind == "out_of_memory" and f.file == "train.py"
    for sig in (signal.SIGKILL, signal.SIGSEGV):
        f = classify(evidence(exit_code=None, signal=sig))
        assert f is not None and f.kind == "out_of_memory" and "6144 MB" in f.message


def test_a_value_error_mentioning_memory_is_still_a_user_exception() -> None:
    f = classify(evidence(error=trace_error("ValueError", "bad"), stderr="log: out of memory"))
    assert f is not None and f.kind == "user_exception"


@pytest.mark.parametrize(
    "message",
    [
        "Torch not compiled with CUDA enabled",
        "No CUDA GPUs are available",
        "Found no NVIDIA driver on your system",
        "NCCL error in: ProcessGroupNCCL.cpp",
    ],
)
def test_gpu_required(message: str) -> None:
    f = classify(evidence(error=trace_error("RuntimeError", message)))
    assert f is not None and f.kind == "gpu_required"


def test_network_from_guard_log_names_host_and_repo_frame() -> None:
    net = [
        {
            "call": "getaddrinfo",
            "host": "download.pytorch.org",
            "port": 443,
            "frames": [{"file": str(RUN_DIR / "data.py"), "line": 9, "function": "get"}],
        }
    ]
    f = classify(evidence(network=net, error=trace_error("URLError", "<urlopen error ...>")))
    assert f is not None and f.kind == "network_blocked"
    assert (
        "download.pytorch.org:443" in f.message
        and "--cmd" in f.message
        and "--data" not in f.message
    )
    assert (f.file, f.line, f.function) == ("data.py", 9, "get")


def test_missing_module_names_it_and_suggests_python() -> None:
    f = classify(evidence(error=trace_error("ModuleNotFoundError", "No module named 'timm'")))
    assert f is not None and f.kind == "missing_module"
    assert "'timm'" in f.message and "--python" in f.message and "/venv/bin/python" in f.message


def test_missing_data_names_the_path() -> None:
    msg = "[Errno 2] No such file or directory: 'data/train.csv'"
    f = classify(evidence(error=trace_error("FileNotFoundError", msg)))
    assert f is not None and f.kind == "missing_data"
    assert "data/train.csv" in f.message and "../data" in f.message and "--data" not in f.message


def test_stderr_traceback_is_parsed_when_there_is_no_trace() -> None:
    stderr = (
        "epoch 1\nTraceback (most recent call last):\n"
        f'  File "{RUN_DIR}/train.py", line 12, in <module>\n    main()\n'
        f'  File "{RUN_DIR}/model.py", line 41, in forward\n    return x @ w\n'
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 4x2)\n"
    )
    error = error_from_stderr(stderr)
    assert error is not None and error.type == "RuntimeError"
    f = classify(evidence(stderr=stderr))
    assert f is not None and f.kind == "user_exception"
    assert (f.file, f.line, f.function) == ("model.py", 41, "forward")
    assert "\n" not in f.message


def test_plain_signal_is_killed() -> None:
    f = classify(evidence(exit_code=None, signal=signal.SIGTERM))
    assert f is not None and f.kind == "killed" and "SIGTERM" in f.message


def test_secret_names_never_pass(tmp_path: Path) -> None:
    for name in (
        "OPENAI_API_KEY",
        "AWS_ACCESS_KEY_ID",
        "HF_TOKEN",
        "DB_PASSWORD",
        "MY_SECRET",
        "GITHUB_PAT",
    ):
        assert is_secret(name)
    host = {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "OPENAI_API_KEY": "x",
        "HOME": "/root",
        "USER": "me",
    }
    env = sandbox_env(
        home=tmp_path / "h",
        tmpdir=tmp_path / "t",
        python=Path("/venv/bin/python"),
        single_thread=True,
        host=host,
        extra={"PYTHONPATH": ".", "WANDB_API_KEY": "y"},
    )
    assert "OPENAI_API_KEY" not in env and "WANDB_API_KEY" not in env and "USER" not in env
    assert env["HOME"] == str(tmp_path / "h") and env["TMPDIR"] == str(tmp_path / "t")
    assert env["PATH"].startswith("/venv/bin:") and env["PYTHONPATH"] == "."
    assert env["OMP_NUM_THREADS"] == "1" and env["CUDA_VISIBLE_DEVICES"] == ""
    assert env["HF_HUB_OFFLINE"] == "1" and env["WANDB_MODE"] == "disabled"


def test_output_cap_keeps_head_and_tail() -> None:
    cap = HeadTail(100)
    cap.add(b"H" * 60)
    cap.add(b"m" * 1000)
    cap.add(b"T" * 50)
    text = cap.text()
    assert text.startswith("H" * 50) and text.endswith("T" * 50)
    assert "[... 1010 bytes cut]" in text
    small = HeadTail(100)
    small.add(b"short")
    assert small.text() == "short"


def test_an_argparse_rejection_is_bad_arguments_not_a_defect():
    stderr = "usage: main.py [-h] --dataset DATASET\nmain.py: error: the following arguments are required: --dataset\n"
    f = classify(evidence(exit_code=2, stderr=stderr))
    assert f.kind == "bad_arguments"
    assert "required: --dataset" in f.message and "--cmd" in f.message


def test_a_syntax_error_names_the_file_and_line():
    trace = {
        "error": {
            "type": "SyntaxError",
            "message": "invalid syntax (model.py, line 29)",
            "frames": [],
        }
    }
    f = classify(evidence(exit_code=1, error=ErrorInfo.model_validate(trace["error"])))
    assert f.kind == "syntax_error" and f.file == "model.py" and f.line == 29
    assert f.message.startswith("model.py:29 does not parse")


def test_a_missing_module_the_repo_holds_at_its_top_names_pythonpath(tmp_path) -> None:
    """A script in a subfolder (projects/adder/adder.py) importing the repo's own package
    at the top (mingpt/): Python put the script's folder on the path, not the repo's."""
    (tmp_path / "mingpt").mkdir()
    (tmp_path / "mingpt" / "__init__.py").write_text("")
    ev = evidence(
        error=trace_error("ModuleNotFoundError", "No module named 'mingpt'"), run_dir=tmp_path
    )
    f = classify(ev)
    assert f is not None and f.kind == "missing_module"
    assert "the repo has it at mingpt" in f.message and "PYTHONPATH=." in f.message
    assert "--python" not in f.message
