"""Running the tools on case folders, in parallel, with a cache for resumed runs.

A run is cached as `<cache>/<mode>/<case id>.json` with the content hash of the case
folder; a resumed benchmark reuses it only when the folder is unchanged. Runs are
subprocesses (`python -m agent.cli CASE -f json -q`), so a crash or hang in one
investigation costs that case only.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from torch_investigate.evals.benchmark.records import Mode, Run
from torch_investigate.evals.benchmark.torchfix import run_torchfix
from torch_investigate.evals.seeding.apply import repo_files

# A whole investigation normally takes under a minute (each training run is bounded by
# the investigator itself); a case that takes five is a hang, scored as an error.
CASE_TIMEOUT_S = 300.0
REPORTING_EXITS = (0, 1, 3)  # the report is on stdout: finished, confirmed, inconclusive


def case_key(folder: Path) -> str:
    """A hash of the files an investigation copies: what git would not ignore (a run
    of the case in place leaves `data/` and caches behind; they change nothing)."""
    digest = hashlib.sha256()
    for name in repo_files(folder):
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()[:32]


class Runner:
    def __init__(self, cache: Path | None, timeout: float = CASE_TIMEOUT_S) -> None:
        self.cache = cache
        self.timeout = timeout

    def run(self, mode: Mode, case_id: str, folder: Path) -> tuple[Run, bool]:
        """The investigator's run (or --static-only's), and whether it was cached."""
        key = case_key(folder)
        cached = self._load(mode, case_id, key)
        if cached is not None:
            return cached, True
        run = self._investigate(mode, case_id, folder, key)
        self._save(run)
        return run, False

    def torchfix(self, cases: dict[str, Path], jobs: int) -> dict[str, tuple[Run, bool]]:
        """TorchFix on every case not cached yet, in one batch."""
        done: dict[str, tuple[Run, bool]] = {}
        todo: dict[str, tuple[Path, str]] = {}
        for case_id, folder in cases.items():
            key = case_key(folder)
            cached = self._load("torchfix", case_id, key)
            if cached is not None:
                done[case_id] = (cached, True)
            else:
                todo[case_id] = (folder, key)
        for case_id, run in run_torchfix(todo, jobs).items():
            self._save(run)
            done[case_id] = (run, False)
        return done

    def _investigate(self, mode: Mode, case_id: str, folder: Path, key: str) -> Run:
        argv = [
            sys.executable,
            "-m",
            "torch_investigate.agent.cli",
            str(folder.resolve()),
            "-f",
            "json",
            "-q",
        ]
        if mode == "static_only":
            argv.append("--static-only")
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="ti-bench-") as cwd:
            try:
                done = subprocess.run(
                    argv, cwd=cwd, env=env, capture_output=True, text=True,
                    timeout=self.timeout, start_new_session=True,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return Run(
                    mode=mode, case_id=case_id, key=key, exit_code=None,
                    seconds=self.timeout, error=f"timed out after {self.timeout:.0f} s",
                )  # fmt: skip
        seconds = round(time.perf_counter() - started, 3)
        report, error = None, ""
        if done.returncode in REPORTING_EXITS:
            try:
                report = json.loads(done.stdout)
            except json.JSONDecodeError:
                error = "the report is not JSON"
        if report is None and not error:
            tail = [line for line in done.stderr.strip().splitlines() if line.strip()]
            error = tail[-1][:300] if tail else f"exit code {done.returncode}"
        return Run(
            mode=mode, case_id=case_id, key=key, exit_code=done.returncode,
            seconds=seconds, error=error, report=report,
        )  # fmt: skip

    def _path(self, mode: Mode, case_id: str) -> Path | None:
        return self.cache / mode / f"{case_id}.json" if self.cache is not None else None

    def _load(self, mode: Mode, case_id: str, key: str) -> Run | None:
        path = self._path(mode, case_id)
        if path is None or not path.is_file():
            return None
        try:
            run = Run.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError:
            return None
        return run if run.key == key and not run.error else None

    def _save(self, run: Run) -> None:
        path = self._path(run.mode, run.case_id)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(run.model_dump_json(), encoding="utf-8")
        tmp.replace(path)  # a run killed mid-write never leaves a half file
