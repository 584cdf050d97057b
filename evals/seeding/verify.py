"""One plain run of a template's command, and what a seeding did to its metric.

Runs happen in a temporary copy with `python` (no tracer, no sandbox: these are our own
templates) and one thread, so two runs at a time leave the machine usable. The metric
is read from the `METRIC <name>=<value>` line the template prints.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from torch_investigate.evals.seeding.apply import copy_repo
from torch_investigate.evals.seeding.records import Effect, MetricRun, Template

METRIC_LINE = re.compile(r"^METRIC (\w+)=(\S+)\s*$", re.MULTILINE)
TIMEOUT_S = 300.0
# A metric moved when it shifts by more than this fraction of the healthy-chance gap.
MARGIN = 0.02


def run_metric(
    folder: Path,
    template: Template,
    timeout: float = TIMEOUT_S,
    parse: Callable[[str, str], float | None] | None = None,
) -> MetricRun:
    """Run the template's command on a copy of folder; folder itself is never written.
    `parse` reads the metric from stdout (default: its `METRIC name=value` line)."""
    holder = Path(tempfile.mkdtemp(prefix="ti-verify-"))
    try:
        work = holder / folder.name
        copy_repo(folder, work)
        env = {
            **os.environ,
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, *template.command],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                start_new_session=True,
            )
        except subprocess.TimeoutExpired:
            return MetricRun(seconds=timeout, error=f"timed out after {timeout:.0f} s")
        seconds = time.perf_counter() - started
        value = (parse or parse_metric)(done.stdout, template.metric)
        error = ""
        if done.returncode != 0:
            tail = [line for line in done.stderr.strip().splitlines() if line.strip()]
            error = tail[-1][:300] if tail else f"exit code {done.returncode}"
        return MetricRun(value=value, returncode=done.returncode, seconds=seconds, error=error)
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def parse_metric(stdout: str, name: str) -> float | None:
    value = None
    for found, raw in METRIC_LINE.findall(stdout):
        if found == name:
            try:
                value = float(raw)
            except ValueError:
                value = None
    return value


def effect(template: Template, healthy: float | None, run: MetricRun) -> Effect:
    """How the seeded run differs from the healthy one."""
    if run.returncode != 0 or run.value is None:
        return "crash"
    if not math.isfinite(run.value):
        return "degraded"
    margin = MARGIN * abs(template.healthy - template.chance)
    if healthy is not None and abs(run.value - healthy) <= margin:
        return "unchanged"
    if not _meets(run.value, template.healthy, template.direction):
        return "degraded"
    if healthy is not None and _meets(run.value, healthy, template.direction):
        return "improved"
    return "changed"


def _meets(value: float, threshold: float, direction: str) -> bool:
    return value >= threshold if direction == "higher" else value <= threshold
