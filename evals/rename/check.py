"""`--check`: every rewritten case must still run as the original does. Each case's
command runs plainly (no tracer, no sandbox; one thread, a fixed hash seed) on a copy of
the original and a copy of the rewrite, and the metric each prints is compared. A crash
or a different metric is a bug of the renamer.

The metric is read from `METRIC name=value`, else from the last `name: value` /
`name=value` / `name value` the run printed (underscores may be spaces), else the last
number on stdout. A generated suite's manifest already holds each case's measured
metric (`buggy_metric`, a control's `healthy_metric`): the rewrite is compared with that
first, and the original runs only when they differ. The originals' results are cached
next to the rewritten suite.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from torch_investigate.evals.benchmark.runner import case_files, content_key
from torch_investigate.evals.rename.suite import SuiteRewrite, case_command
from torch_investigate.evals.seeding.apply import copy_repo
from torch_investigate.evals.seeding.records import MANIFEST

TIMEOUT_S = 600.0
NUMBER = r"(-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|-?inf)"
TOLERANCE = 1e-4  # relative: prints rounded to 4 digits differ by one unit at most

Verdict = Literal["same", "close", "differs", "crash", "no metric", "no command"]


class MetricRun(BaseModel):
    value: float | None = None
    returncode: int | None = None
    seconds: float = 0.0
    error: str = ""


class CaseCheck(BaseModel):
    id: str
    verdict: Verdict
    original: MetricRun | None = None
    rewritten: MetricRun | None = None
    command: str | None = None


class CheckReport(BaseModel):
    suite: str
    rewritten: str
    cases: list[CaseCheck] = Field(default_factory=list)

    @property
    def problems(self) -> list[CaseCheck]:
        return [c for c in self.cases if c.verdict not in ("same", "close")]


def check_suite(original: Path, rewritten: Path, jobs: int = 2) -> CheckReport:
    record = SuiteRewrite.load(rewritten)
    raw = json.loads((original / MANIFEST).read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in [*raw.get("cases", []), *raw.get("controls", [])]}
    new_raw = json.loads((rewritten / MANIFEST).read_text(encoding="utf-8"))
    new_entries = {e["id"]: e for e in [*new_raw.get("cases", []), *new_raw.get("controls", [])]}
    cache = rewritten.parent / f"{rewritten.name}.check-cache"
    report = CheckReport(suite=str(original), rewritten=str(rewritten))

    def one(case_id: str) -> CaseCheck:
        entry = entries[case_id]
        command = case_command(original, entry)
        rewrite = record.case(case_id)
        if command is None or rewrite is None or rewrite.command is None:
            return CaseCheck(id=case_id, verdict="no command")
        metric = entry.get("metric", "")
        after = run_metric(rewritten / new_entries[case_id]["path"], rewrite.command, metric)
        measured = _measured(entry)
        if measured is not None and compare(measured, after) in ("same", "close"):
            before = measured
        else:
            before = _cached_run(cache, original / entry["path"], command, metric)
        return CaseCheck(
            id=case_id, verdict=compare(before, after), original=before, rewritten=after,
            command=rewrite.command,
        )  # fmt: skip

    with ThreadPoolExecutor(jobs) as pool:
        for n, result in enumerate(pool.map(one, list(entries)), start=1):
            report.cases.append(result)
            a = result.original.value if result.original else None
            b = result.rewritten.value if result.rewritten else None
            err = result.rewritten.error if result.rewritten else ""
            print(
                f"[{n}/{len(entries)}] {result.id}: {result.verdict} ({a} -> {b}) {err}",
                file=sys.stderr,
            )
    return report


def _measured(entry: dict) -> MetricRun | None:
    """The metric the manifest recorded for the case as it is (None: none recorded)."""
    value = entry.get("buggy_metric", entry.get("healthy_metric") if "truth" not in entry else None)
    if not isinstance(value, (int, float)):
        return None
    return MetricRun(value=float(value), returncode=0, error="as measured in the manifest")


def compare(before: MetricRun, after: MetricRun) -> Verdict:
    if after.returncode != 0 and before.returncode == 0:
        return "crash"
    if before.value is None or after.value is None:
        return "no metric" if before.value is None else "crash"
    a, b = before.value, after.value
    if a == b or (math.isnan(a) and math.isnan(b)):
        return "same"
    if math.isfinite(a) and math.isfinite(b) and abs(a - b) <= TOLERANCE * max(1.0, abs(a)):
        return "close"
    return "differs"


def _cached_run(cache: Path, folder: Path, command: str, metric: str) -> MetricRun:
    key = hashlib.sha256(
        f"{content_key(case_files(folder))}\0{command}\0{metric}".encode()
    ).hexdigest()[:24]
    path = cache / f"{folder.name}-{key}.json"
    if path.is_file():
        return MetricRun.model_validate_json(path.read_text(encoding="utf-8"))
    run = run_metric(folder, command, metric)
    if run.returncode is not None:
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(run.model_dump_json(), encoding="utf-8")
    return run


def run_metric(folder: Path, command: str, metric: str, timeout: float = TIMEOUT_S) -> MetricRun:
    """Run `command` (a shell line, `python` being this interpreter) in a copy of folder."""
    holder = Path(tempfile.mkdtemp(prefix="ti-rename-check-"))
    try:
        work = holder / folder.name
        copy_repo(folder, work)
        bin_dir = str(Path(sys.executable).parent)
        env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command, shell=True, cwd=work, env=env, capture_output=True, text=True,
                timeout=timeout, start_new_session=True, executable="/bin/bash",
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return MetricRun(seconds=timeout, error=f"timed out after {timeout:.0f} s")
        seconds = round(time.perf_counter() - started, 2)
        error = ""
        if done.returncode != 0:
            tail = [line for line in done.stderr.strip().splitlines() if line.strip()]
            error = tail[-1][:300] if tail else f"exit code {done.returncode}"
        value = parse_metric(done.stdout, done.stderr, metric)
        return MetricRun(value=value, returncode=done.returncode, seconds=seconds, error=error)
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def parse_metric(stdout: str, stderr: str, name: str) -> float | None:
    exact = re.findall(rf"^METRIC {re.escape(name)}=(\S+)\s*$", stdout, re.MULTILINE)
    if exact:
        return _float(exact[-1])
    if name:
        spelled = r"[ _]".join(re.escape(p) for p in name.split("_"))
        pattern = rf"(?<![\w]){spelled}(?![\w])\s*[:=]?\s*{NUMBER}"
        found = re.findall(pattern, stdout + "\n" + stderr, re.IGNORECASE)
        if found:
            return _float(found[-1])
    numbers = re.findall(NUMBER, stdout)
    return _float(numbers[-1]) if numbers else None


def _float(raw: str) -> float | None:
    try:
        return float(raw)
    except ValueError:
        return None
