"""Where the benchmark's investigations run: the one seam between scheduling (which
cases, the cache, progress, on the driver) and execution.

An `Executor` takes the jobs of the cases not cached yet and yields their runs as they
finish. `LocalExecutor` runs them here, N at a time; `RayExecutor`
(evals/benchmark/ray_executor.py) runs each as a Ray task. Both call the same
`investigate(job)`, so a case's run is the same record either way, timings apart.
evals/bench.py picks one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Protocol

from torch_investigate.evals.benchmark.records import Run
from torch_investigate.evals.benchmark.runner import CaseJob, investigate


class ExecutorError(Exception):
    """The executor could not start (Ray missing, a cluster out of reach): one line."""


class Executor(Protocol):
    description: str  # for the wall-time line: where the runs happened

    def run(self, jobs: Sequence[CaseJob]) -> Iterator[Run]:
        """The runs of `jobs`, in the order they finish."""
        ...


class LocalExecutor:
    """Threads on this machine, each waiting on one investigation subprocess."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"--jobs {workers}"

    def run(self, jobs: Sequence[CaseJob]) -> Iterator[Run]:
        with ThreadPoolExecutor(self.workers) as pool:
            for future in as_completed([pool.submit(investigate, job) for job in jobs]):
                yield future.result()
