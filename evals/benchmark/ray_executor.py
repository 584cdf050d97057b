"""The benchmark on Ray: each investigation is one Ray task (`investigate bench --ray`).

Scheduling and the cache stay on the driver; a task gets a `CaseJob` (the case's files,
a few KB, so workers need torch-investigate installed but not the suite on a shared
filesystem), runs the same `investigate` the local executor does, and returns the `Run`
as a JSON-ready dict. An LLM run's key and endpoint travel in the task's environment.
Only this module imports ray, an optional extra.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import ray
from pydantic import ValidationError

from torch_investigate.evals.benchmark.executors import ExecutorError
from torch_investigate.evals.benchmark.records import Run
from torch_investigate.evals.benchmark.runner import CaseJob, investigate

LOCAL = "local"  # a new Ray instance on this machine (a bare --ray)
LLM_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL")


@ray.remote(num_cpus=1)
def investigate_task(job: dict[str, Any]) -> dict[str, Any]:
    # Plain data in and out: a worker's unpickling never depends on our classes' layout.
    return investigate(CaseJob.model_validate(job)).model_dump(mode="json")


class RayExecutor:
    def __init__(self, cpus_per_case: float, description: str) -> None:
        self.cpus_per_case = cpus_per_case
        self.description = description

    def run(self, jobs: Sequence[CaseJob]) -> Iterator[Run]:
        task = investigate_task.options(
            num_cpus=self.cpus_per_case, **llm_environment(any(job.llm for job in jobs))
        )
        pending = {task.remote(job.model_dump()): job for job in jobs}
        try:
            while pending:
                [ready], _ = ray.wait(list(pending), num_returns=1)
                yield _result(ready, pending.pop(ready))
        finally:  # interrupted: nothing left queued on the cluster
            for ref in pending:
                ray.cancel(ref)


def llm_environment(needed: bool) -> dict[str, Any]:
    """The task options that give an LLM run its endpoint and key on a worker: this
    machine's OPENAI_* variables, through the task's environment (a CaseJob never
    carries the key)."""
    env = {k: v for k, v in os.environ.items() if k in LLM_VARIABLES} if needed else {}
    return {"runtime_env": {"env_vars": env}} if env else {}


def _result(ref: ray.ObjectRef, job: CaseJob) -> Run:
    try:
        return Run.model_validate(ray.get(ref))
    # The task or its worker failed (or a worker of another version answered), not the case.
    except (ray.exceptions.RayError, ValidationError) as e:
        lines = [line for line in str(e).splitlines() if line.strip()]
        return Run(
            mode=job.mode, case_id=job.case_id, key=job.key, exit_code=None, seconds=0.0,
            error=f"ray: {lines[-1][:300] if lines else type(e).__name__}",
        )  # fmt: skip


@contextmanager
def connect(address: str, workers: int, cpus_per_case: float) -> Iterator[RayExecutor]:
    """Ray for the duration: a new local instance of `workers` CPUs, or the cluster at
    `address` (`auto`, `host:6379`, `ray://host:10001`). A Ray this process had already
    initialized is used as it is and left running."""
    owned = not ray.is_initialized()
    unreachable = _unreachable(address) if owned else None
    if unreachable is not None:
        raise ExecutorError(f"cannot reach the Ray cluster at {address}: {unreachable}")
    if owned:
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        try:
            if address == LOCAL:
                ray.init(address=LOCAL, num_cpus=workers, include_dashboard=False, **quiet)
            else:
                ray.init(address=address, **quiet)
        except Exception as e:  # noqa: BLE001 - ConnectionError, ValueError, ...: one line
            first = str(e).strip().splitlines()
            why = first[0] if first else type(e).__name__
            if address.startswith("ray://") and "timeout" in why:  # the port answered
                why += " (a cluster with token authentication needs RAY_AUTH_MODE=token here)"
            raise ExecutorError(f"cannot start Ray at {address}: {why}") from None
    try:
        cpus = ray.cluster_resources().get("CPU", 0)
        where = "a local Ray instance" if address == LOCAL else f"the Ray cluster at {address}"
        yield RayExecutor(cpus_per_case, f"{where} ({cpus:g} CPUs, {cpus_per_case:g} per case)")
    finally:
        if owned:
            ray.shutdown()


def _unreachable(address: str) -> str | None:
    """Why nothing answers at an explicit `host:port` (or `ray://host:port`), else None.
    Checked first because Ray retries a silent address for many minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return None  # auto, local: Ray finds (or fails to find) them itself at once
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as e:
        return e.strerror or str(e) or type(e).__name__
    return None
