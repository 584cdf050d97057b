"""Running the tools on case folders, with a cache for resumed runs.

A case is its files: what git would not ignore in its folder. The content hash of
those files keys the cache (`<cache>/<mode>/<case id>.json`), so a resumed benchmark
reuses a run only when the folder is unchanged. An LLM policy's runs live in their own
folder (`<cache>/llm-review-MODEL/`) and their key also holds the model, the mode and the
bounds (`LLMSpec.identity`), so a planner run and an LLM run of a case, or runs of two
models or modes, never share an entry. An investigation gets the files themselves (a
`CaseJob`), writes them to a fresh temporary folder and runs
`python -m torch_investigate.agent.cli CASE -f json -q [--model M --mode review ...]`
there as a subprocess, so a crash or hang costs that case only, and the run is the same
wherever it happens: in a thread here or in a Ray task on another machine
(evals/benchmark/executors.py). The API key reaches it through the environment only.
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

from pydantic import BaseModel

from torch_investigate.evals.benchmark.records import LLMSpec, Mode, Run
from torch_investigate.evals.benchmark.torchfix import run_torchfix
from torch_investigate.evals.seeding.apply import repo_files

# A whole investigation normally takes under a minute (each training run is bounded by
# the investigator itself); a case that takes five is a hang, scored as an error.
CASE_TIMEOUT_S = float(os.environ.get("TORCH_INVESTIGATE_CASE_TIMEOUT", "300"))
# (raise it on a loaded machine: a case timed out is an error, rerun on resume, never cached)
LLM_CASE_TIMEOUT_S = 900.0  # an LLM run waits on its endpoint too (30 requests or more)
FIX_CASE_TIMEOUT_S = 1800.0  # `investigate fix` reruns the investigation once per candidate patch
REPORTING_EXITS = (0, 1, 3)  # the report is on stdout: finished, confirmed, inconclusive


class CaseJob(BaseModel):
    """One investigation to run, self-contained: it carries the case's files (a few KB),
    so a worker needs torch-investigate but not the suite."""

    mode: Mode  # investigator, static_only or llm
    case_id: str
    key: str  # content_key(files), with the LLM policy's identity for mode llm
    origin: str  # the case folder as the driver names it; the report's `repo`
    files: dict[str, bytes]  # relative name -> content
    timeout: float = CASE_TIMEOUT_S
    llm: LLMSpec | None = None  # mode llm: the model and its flags


def case_files(folder: Path) -> dict[str, bytes]:
    """The files an investigation copies: what git would not ignore (a run of the case
    in place leaves `data/` and caches behind; they change nothing)."""
    return {name: (folder / name).read_bytes() for name in repo_files(folder)}


def content_key(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()[:32]


def case_key(folder: Path) -> str:
    return content_key(case_files(folder))


def llm_key(content: str, llm: LLMSpec) -> str:
    return hashlib.sha256(f"{content}\0{llm.identity()}".encode()).hexdigest()[:32]


def case_job(
    mode: Mode,
    case_id: str,
    folder: Path,
    timeout: float | None = None,
    llm: LLMSpec | None = None,
) -> CaseJob:
    files = case_files(folder)
    key = content_key(files)
    if mode == "llm":
        if llm is None:
            raise ValueError("an llm job needs its LLMSpec")
        key = llm_key(key, llm)
    default = {"llm": LLM_CASE_TIMEOUT_S, "fix": FIX_CASE_TIMEOUT_S}.get(mode, CASE_TIMEOUT_S)
    return CaseJob(
        mode=mode, case_id=case_id, key=key, origin=str(folder.resolve()), files=files,
        timeout=timeout or default, llm=llm if mode == "llm" else None,
    )  # fmt: skip


def investigate(job: CaseJob) -> Run:
    """The investigator's run (or --static-only's) on the job's files, in a fresh folder
    named like the case's. The report's `repo` is set back to the case folder, so the
    record does not depend on where it ran."""
    with tempfile.TemporaryDirectory(prefix="ti-bench-") as tmp:
        case = Path(tmp) / "case" / Path(job.origin).name
        for name, content in job.files.items():
            (case / name).parent.mkdir(parents=True, exist_ok=True)
            (case / name).write_bytes(content)
        cwd = Path(tmp) / "cwd"
        cwd.mkdir()
        run = _subprocess(job, case, cwd)
    if run.report is not None:
        run.report["repo"] = job.origin
    return run


def _subprocess(job: CaseJob, case: Path, cwd: Path) -> Run:
    command = ["fix"] if job.mode == "fix" else []
    argv = [
        sys.executable,
        "-m",
        "torch_investigate.agent.cli",
        *command,
        str(case),
        "-f",
        "json",
        "-q",
    ]
    if job.mode == "static_only":
        argv.append("--static-only")
    if job.llm is not None:
        argv += job.llm.argv()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.perf_counter()
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=env, capture_output=True, text=True,
            timeout=job.timeout, start_new_session=True,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return Run(
            mode=job.mode, case_id=job.case_id, key=job.key, exit_code=None,
            seconds=job.timeout, error=f"timed out after {job.timeout:.0f} s",
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
        mode=job.mode, case_id=job.case_id, key=job.key, exit_code=done.returncode,
        seconds=seconds, error=error, report=report,
    )  # fmt: skip


class Runner:
    """The cache of runs, on the driver: a job is made only for a case not cached yet,
    and every finished run is saved, wherever it ran."""

    def __init__(
        self, cache: Path | None, llm: LLMSpec | None = None, fallbacks: list[Path] | None = None
    ) -> None:
        self.cache = cache
        self.llm = llm  # names the folder of mode llm's runs
        # other caches (of earlier benchmarks of the same investigator) read, never written
        self.fallbacks = fallbacks or []

    def cached(self, mode: Mode, case_id: str, key: str) -> Run | None:
        run = self._read(self._path(mode, case_id), key)
        if run is not None:
            return run
        for folder in self.fallbacks:
            run = self._read(folder / label(mode, self.llm) / f"{case_id}.json", key)
            if run is not None:
                self.save(run)
                return run
        return None

    @staticmethod
    def _read(path: Path | None, key: str) -> Run | None:
        if path is None or not path.is_file():
            return None
        try:
            run = Run.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError:
            return None
        return run if run.key == key and not run.error else None

    def save(self, run: Run) -> None:
        path = self._path(run.mode, run.case_id)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(run.model_dump_json(), encoding="utf-8")
        tmp.replace(path)  # a run killed mid-write never leaves a half file

    def torchfix(self, cases: dict[str, Path], jobs: int) -> dict[str, tuple[Run, bool]]:
        """TorchFix on every case not cached yet, in one batch (here, on the driver)."""
        done: dict[str, tuple[Run, bool]] = {}
        todo: dict[str, tuple[Path, str]] = {}
        for case_id, folder in cases.items():
            key = case_key(folder)
            cached = self.cached("torchfix", case_id, key)
            if cached is not None:
                done[case_id] = (cached, True)
            else:
                todo[case_id] = (folder, key)
        for case_id, run in run_torchfix(todo, jobs).items():
            self.save(run)
            done[case_id] = (run, False)
        return done

    def _path(self, mode: Mode, case_id: str) -> Path | None:
        if self.cache is None:
            return None
        return self.cache / label(mode, self.llm) / f"{case_id}.json"


def label(mode: Mode, llm: LLMSpec | None) -> str:
    """A mode's name in the cache and the progress lines (mode llm: the policy's label)."""
    if mode != "llm":
        return mode
    if llm is None:
        raise ValueError("mode llm needs its LLMSpec")
    return llm.label
