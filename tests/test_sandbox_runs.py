"""The sandbox on real subprocesses: each behaviour on at least two differently written
repos (a flat script, a package run with -m, a script that checkpoints into its folder).

One warm sandbox per repo for the whole module (the server imports torch once); the
parent environment carries planted credentials the whole time.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import tree_hash

from torch_investigate.tools.sandbox import Limits, RunResult, Sandbox
from torch_investigate.tools.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures" / "sandbox"
SECRETS = {"OPENAI_API_KEY": "sk-planted-123", "AWS_SECRET_ACCESS_KEY": "aws-planted-456"}
STUB_TRACER = FIXTURES / "stub_trace"
FAST = Limits(wall_s=30, memory_mb=512)
HANG = Limits(wall_s=1.5, memory_mb=512)


def mark(relpath: str, name: str) -> int:
    text = (FIXTURES / relpath).read_text().splitlines()
    return next(i for i, line in enumerate(text, 1) if f"# MARK: {name}" in line)


def processes_with(token: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if token.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def planted_secrets() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        for name, value in SECRETS.items():
            mp.setenv(name, value)
        yield


def _sandbox(name: str) -> Iterator[tuple[Workspace, Sandbox]]:
    with (
        Workspace.create(FIXTURES / name) as ws,
        Sandbox(ws.root, limits=FAST, tracer=STUB_TRACER) as sandbox,
    ):
        yield ws, sandbox


@pytest.fixture(scope="module")
def flat(planted_secrets: None) -> Iterator[tuple[Workspace, Sandbox]]:
    yield from _sandbox("flat")


@pytest.fixture(scope="module")
def pkg(planted_secrets: None) -> Iterator[tuple[Workspace, Sandbox]]:
    yield from _sandbox("pkgrepo")


@pytest.fixture(scope="module")
def ckpt(planted_secrets: None) -> Iterator[tuple[Workspace, Sandbox]]:
    yield from _sandbox("ckpt")


def run_flat(sandbox: Sandbox, mode: str, limits: Limits = FAST, *extra: str) -> RunResult:
    return sandbox.run(
        ["train.py", "--mode", mode, *extra], trace_config={}, label=mode, limits=limits
    )


def run_pkg(sandbox: Sandbox, mode: str, limits: Limits = FAST, *extra: str) -> RunResult:
    return sandbox.run(
        ["-m", "trainer.main", mode, *extra], trace_config={}, label=mode, limits=limits
    )


def test_clean_runs_succeed_in_both_layouts(flat, pkg) -> None:
    for result in (run_flat(flat[1], "ok"), run_pkg(pkg[1], "ok")):
        assert result.failure is None, result.stderr
        assert result.exit_code == 0
        assert result.trace_path is not None and result.trace_path.is_file()
        assert not result.trace_path.is_relative_to(result.run_dir)
    assert "loss" in run_flat(flat[1], "ok").stdout


@pytest.mark.parametrize(
    ("repo", "mode", "file", "marker", "host"),
    [
        ("flat", "urllib", "train.py", "flat-urllib", "example.com"),
        ("flat", "socket", "train.py", "flat-socket", "data.example.org"),
        ("pkg", "urllib", "trainer/data.py", "pkg-urllib", "files.example.net"),
        ("pkg", "socket", "trainer/data.py", "pkg-socket", "203.0.113.7"),
    ],
)
def test_network_attempt_is_blocked_and_located(request, repo, mode, file, marker, host) -> None:
    sandbox = request.getfixturevalue(repo)[1]
    result = (run_flat if repo == "flat" else run_pkg)(sandbox, mode)
    failure = result.failure
    assert failure is not None and failure.kind == "network_blocked", result.stderr
    assert host in failure.message and "--cmd" in failure.message
    assert (failure.file, failure.line) == (
        file,
        mark(f"{'flat' if repo == 'flat' else 'pkgrepo'}/{file}", marker),
    )
    assert "network access blocked by torch-investigate" in result.stderr


def test_hanging_runs_are_killed_with_their_whole_group(flat, pkg) -> None:
    token_flat, token_pkg = f"ti-hang-{uuid.uuid4().hex}", f"ti-hang-{uuid.uuid4().hex}"
    cases = [
        (flat[1], ["train.py", "--mode", "spin"]),
        (flat[1], ["train.py", "--mode", "sleep"]),
        (flat[1], ["train.py", "--mode", "child_hang", "--token", token_flat]),
        (pkg[1], ["-m", "trainer.main", "sleep"]),
        (pkg[1], ["-m", "trainer.main", "child_hang", token_pkg]),
    ]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(s.run, argv, trace_config={}, limits=HANG) for s, argv in cases]
        results = [f.result() for f in futures]
    for result in results:
        assert result.timed_out
        assert result.failure is not None and result.failure.kind == "timeout"
        assert "timed out after 1.5 s" in result.failure.message
        assert result.wall_s < 1.5 + 3
    assert results[3].failure.file == "trainer/main.py"
    assert results[3].failure.line == mark("pkgrepo/trainer/main.py", "pkg-sleep")
    spin = mark("flat/train.py", "flat-spin")
    assert results[0].failure.line in (spin, spin + 1)  # the `while` or its `pass`
    assert processes_with(token_flat) == [] and processes_with(token_pkg) == []


@pytest.mark.parametrize(
    ("repo", "mode", "file", "marker"),
    [
        ("flat", "memlist", "train.py", "flat-memlist"),
        ("flat", "memtorch", "train.py", "flat-memtorch"),
        ("pkg", "memlist", "trainer/main.py", "pkg-memlist"),
        ("pkg", "memtorch", "trainer/model.py", "pkg-memtorch"),
    ],
)
def test_memory_hog_is_stopped_as_out_of_memory(request, repo, mode, file, marker) -> None:
    sandbox = request.getfixturevalue(repo)[1]
    result = (run_flat if repo == "flat" else run_pkg)(sandbox, mode)
    failure = result.failure
    assert failure is not None and failure.kind == "out_of_memory", result.stderr[-2000:]
    assert "512 MB" in failure.message
    assert failure.file == file
    assert failure.line == mark(f"{'flat' if repo == 'flat' else 'pkgrepo'}/{file}", marker)


def test_crash_is_located_to_file_line_function(flat, pkg) -> None:
    crash = run_flat(flat[1], "crash").failure
    assert crash is not None and crash.kind == "user_exception"
    assert (crash.file, crash.line, crash.function) == (
        "train.py",
        mark("flat/train.py", "flat-crash"),
        "step",
    )
    assert crash.exception_type == "ValueError" and "bad batch 7" in crash.message
    crash = run_pkg(pkg[1], "crash").failure
    assert crash is not None and crash.kind == "user_exception"
    expected = ("trainer/model.py", mark("pkgrepo/trainer/model.py", "pkg-crash"), "forward")
    assert (crash.file, crash.line, crash.function) == expected
    assert crash.exception_type == "RuntimeError"


def test_secrets_are_invisible_inside(flat, pkg) -> None:
    assert os.environ["OPENAI_API_KEY"] == SECRETS["OPENAI_API_KEY"]  # planted in the parent
    result = run_flat(flat[1], "secrets")
    line = next(li for li in result.stdout.splitlines() if li.startswith("SECRETS "))
    import json

    seen = json.loads(line.removeprefix("SECRETS "))
    assert seen["names"] == [] and seen["values"] == []
    if flat[1].isolation == "bwrap":
        assert seen["proc"] == 0  # no process visible in the sandbox carries them either
    result = run_pkg(pkg[1], "secrets")
    assert "SECRETS [] []" in result.stdout


def test_original_repo_is_unchanged_after_runs_that_write(ckpt, flat) -> None:
    ws, sandbox = ckpt
    before_source, before_copy = (
        tree_hash(ws.source, caches=False),
        tree_hash(ws.root, caches=False),
    )
    result = sandbox.run(["train.py"], trace_config={}, label="ckpt")
    assert result.failure is None, result.stderr
    assert (result.run_dir / "checkpoints" / "last.pt").is_file()
    assert (result.run_dir / "data.txt").read_text() == "overwritten by the run\n"
    assert tree_hash(ws.source, caches=False) == before_source
    assert tree_hash(ws.root, caches=False) == before_copy
    assert not (ws.source.parent / "escape.txt").exists()
    ws_flat, flat_box = flat
    before = tree_hash(ws_flat.source, caches=False)
    run_flat(flat_box, "ok")
    assert tree_hash(ws_flat.source, caches=False) == before


def test_runs_do_not_contaminate_each_other(ckpt, pkg) -> None:
    first = ckpt[1].run(["train.py"], trace_config={}, label="first")
    second = ckpt[1].run(["train.py"], trace_config={}, label="second")
    assert "fresh start" in first.stdout and "fresh start" in second.stdout
    assert first.stdout == second.stdout
    assert first.run_dir != second.run_dir
    one, two = run_pkg(pkg[1], "ok"), run_pkg(pkg[1], "ok")
    assert "fresh start" in one.stdout and "fresh start" in two.stdout


def test_warm_server_is_reused(flat) -> None:
    sandbox = flat[1]
    results = sandbox.run_many(
        [(["train.py"], {}, "a"), (["train.py"], {}, "b"), (["train.py"], {}, "c")]
    )
    assert [r.label for r in results] == ["a", "b", "c"]
    assert all(r.warm and r.failure is None for r in results)
    assert len({r.server_pid for r in results}) == 1
    assert sandbox.server_pid() is not None


def test_other_failure_kinds(flat) -> None:
    sandbox = flat[1]
    data = run_flat(sandbox, "missing_data").failure
    assert data is not None and data.kind == "missing_data" and "data/train.csv" in data.message
    assert data.line == mark("flat/train.py", "flat-missing-data")
    module = run_flat(sandbox, "missing_module").failure
    assert module is not None and module.kind == "missing_module"
    assert "torch_investigate_no_such_module" in module.message and "--python" in module.message
    gpu = run_flat(sandbox, "gpu").failure
    assert gpu is not None and gpu.kind == "gpu_required"
    assert gpu.line == mark("flat/train.py", "flat-gpu")


def test_output_is_capped_with_a_note(flat) -> None:
    spam = run_flat(flat[1], "spam", Limits(wall_s=30, output_bytes=10_000))
    assert spam.failure is None
    assert "bytes cut]" in spam.stdout and len(spam.stdout) < 11_000
    assert spam.stdout.rstrip().endswith("x" * 40)
    flood = run_flat(
        flat[1], "flood", Limits(wall_s=30, output_bytes=10_000, output_kill_bytes=2_000_000)
    )
    assert flood.failure is not None and flood.failure.kind == "output_limit"


def test_missing_interpreter_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("print('hi')\n")
    with Sandbox(tmp_path, python="/usr/bin/python3", tracer=STUB_TRACER) as sandbox:
        result = sandbox.run(["train.py"], trace_config={})
    if result.failure is None:
        pytest.skip("/usr/bin/python3 has torch here")
    assert result.failure.kind == "interpreter"
    assert "/usr/bin/python3" in result.failure.message and "torch" in result.failure.message
    assert "\n" not in result.failure.message
    with Sandbox(tmp_path, python="/nonexistent/python", warm=False) as sandbox:
        failure = sandbox.run(["train.py"], trace_config={}).failure
    assert (
        failure is not None
        and failure.kind == "interpreter"
        and "/nonexistent/python" in failure.message
    )


def test_with_the_real_tracer_a_crash_is_still_evidence() -> None:
    """The project's own tools/trace, staged under its private name: a clean run and a
    crash both leave a trace JSON, and the crash is located from the tracer's error."""
    with Workspace.create(FIXTURES / "flat") as ws, Sandbox(ws.root, limits=FAST) as sandbox:
        ok, crash = sandbox.run_many(
            [(["train.py"], {}, "ok"), (["train.py", "--mode", "crash"], {}, "crash")]
        )
    assert ok.failure is None and ok.trace_path is not None, ok.stderr[-2000:]
    assert crash.trace_path is not None
    assert crash.failure is not None and crash.failure.kind == "user_exception"
    assert (crash.failure.file, crash.failure.function) == ("train.py", "step")


def test_close_during_runs_stops_them_and_leaves_nothing(planted_secrets) -> None:
    """close() from another thread (a server shutting down): the runs in flight end at once,
    no process or folder survives, and a run started afterwards is refused."""
    import threading
    import time

    from torch_investigate.tools.sandbox import SandboxError

    token = f"ti-close-{uuid.uuid4().hex}"
    slow = Limits(wall_s=120, memory_mb=512)
    with Workspace.create(FIXTURES / "flat") as ws:
        sandbox = Sandbox(ws.root, limits=slow, tracer=STUB_TRACER, parallel=1)
        results: list = []
        argv = ["train.py", "--mode", "child_hang", "--token", token]

        def run(*argv: str) -> None:
            try:
                results.append(sandbox.run(list(argv), trace_config={}, limits=slow))
            except SandboxError as e:
                results.append(e)

        runs = [  # the second waits for the only slot while the first hangs
            threading.Thread(target=run, args=argv),
            threading.Thread(target=run, args=("train.py", "--mode", "sleep")),
        ]
        for t in runs:
            t.start()
        deadline = time.monotonic() + 60
        while not processes_with(token) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_with(token), "the run never started"
        started = time.monotonic()
        sandbox.close()
        for t in runs:
            t.join(timeout=30)
        assert time.monotonic() - started < 15 and not any(t.is_alive() for t in runs)
        assert not sandbox.root.exists()
        assert processes_with(token) == []
    (ended,) = [r for r in results if not isinstance(r, SandboxError)]
    assert ended.failure is not None and ended.failure.kind == "killed"
    assert [str(r) for r in results if isinstance(r, SandboxError)] == ["the sandbox is closed"]
    with pytest.raises(SandboxError, match="closed"):
        sandbox.run(argv, trace_config={})


def test_set_up_commands_leave_their_files_for_every_later_run(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "make_data.py").write_text(
        "from pathlib import Path\nPath('data').mkdir(exist_ok=True)\nPath('data/x.txt').write_text('ready')\n"
    )
    (repo / "train.py").write_text(
        "from pathlib import Path\nassert Path('data/x.txt').read_text() == 'ready'\n"
    )
    before = tree_hash(repo, caches=False)
    with Workspace.create(repo) as ws, Sandbox(ws.root, limits=FAST) as sandbox:
        notes = sandbox.prepare([["make_data.py"]])
        assert notes == ["set-up `python make_data.py` ran first (1 files made or changed)"]
        assert (ws.root / "data" / "x.txt").read_text() == "ready"
        done = sandbox.run(["train.py"], trace_config={"trace": False})
        assert done.failure is None, done.stderr
        failing = sandbox.prepare([["missing.py"]])
        assert failing[0].startswith("set-up `python missing.py` failed")
    assert tree_hash(repo, caches=False) == before  # the user's repo never sees the data
