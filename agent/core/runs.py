"""Runs of the repo's training path: the baseline and each intervention, cached by what they change.

A run is the sandbox result plus its validated trace. Interventions run a short,
hard-stopped path (no evaluation phase) so several fit in the time of one baseline;
`Runner.many` runs them two at a time on the warm server. A listener (`on_run`) hears
each run start, progress about every second, and finish, as `RunEvent`s, from the
threads the runs use; the Runner itself prints nothing.
"""

from __future__ import annotations

import math
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from torch_investigate.agent.core.curves import final_level, first_recorded, window
from torch_investigate.tools.intervention_effect import InterventionValue
from torch_investigate.tools.interventions import tracer_interventions
from torch_investigate.tools.records import RunSummary
from torch_investigate.tools.sandbox import Limits, RunResult, Sandbox
from torch_investigate.tools.sandbox.progress import RunProgress
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.tracefile.trace import Trace

# Budgets: the baseline traces `steps` optimizer steps and then fast-forwards to the
# evaluation phase; an intervention stops hard after `probe_steps`. Each run stops at
# its wall-clock limit (seconds), the sandbox's default.
DEFAULT_STEPS = 200
DEFAULT_TIMEOUT_S = Limits().wall_s
PROBE_STEPS = 120


class RunEvent(BaseModel):
    """One moment of one run of the training path, for a listener (the CLI's display)."""

    kind: Literal["started", "progress", "finished"]
    label: str  # the run's key: "baseline", "lr_scale=10", "fixed_batch,holdout/300", "probe-1"
    interventions: dict[str, InterventionValue] = Field(default_factory=dict)
    budget: int  # optimizer steps traced (the baseline then fast-forwards to its evaluation)
    steps: int = 0  # optimizer steps so far (progress) or in all (finished)
    phase: str = "starting"  # progress: starting | train | fast_forward | eval
    seconds: float = 0.0  # since the run started, on the host (server start-up included)
    status: str = ""  # finished: RunSummary.status (completed, stopped, crashed, timeout, ...)


RunListener = Callable[[RunEvent], None]


@dataclass
class Run:
    label: str
    interventions: dict[str, InterventionValue]
    result: RunResult
    trace: Trace | None
    trace_error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """The path ran and produced a trace (a crash with a trace is still evidence)."""
        return self.trace is not None

    @property
    def crashed(self) -> bool:
        return self.result.failure is not None or (
            self.trace is not None and self.trace.status == "crashed"
        )

    def curve(self) -> list[float]:
        return self.trace.curve() if self.trace else []

    def summary(self, baseline: Run | None = None) -> RunSummary:
        """The run for the report; `baseline` given, the numbers a check's comparison
        with it states (the same steps, the same statistic)."""
        t = self.trace
        status = t.status if t else "no trace"
        if self.result.failure is not None:
            status = self.result.failure.kind
        raw = t.raw_curve() if t else []
        losses = [_finite_or_none(v) for v in raw][:2000]
        settled, compared, base_settled = final_level(raw), None, None
        base_raw = baseline.trace.raw_curve() if baseline and baseline.trace else []
        if base_raw and raw and baseline is not self:
            w = window(base_raw, raw)
            settled, compared, base_settled = w.settled, w.steps, w.base_settled
        return RunSummary(
            label=self.label,
            interventions=[k if v is True else f"{k}={v}" for k, v in self.interventions.items()],
            status=status,
            steps=t.n_steps if t else 0,
            wall_s=round(self.result.wall_s, 3),
            losses=losses,
            message=self.result.failure.message
            if self.result.failure
            else (t.stop_reason if t else self.trace_error),
            first_loss=first_recorded(raw),
            settled_loss=settled,
            compared_steps=compared,
            baseline_settled_loss=base_settled,
        )


def _finite_or_none(v: float | None) -> float | None:
    if v is None or not math.isfinite(v):
        return None
    return v


class Runner:
    def __init__(
        self,
        sandbox: Sandbox,
        argv: list[str],
        *,
        steps: int = DEFAULT_STEPS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        save_dir: Path | None = None,
        env: dict[str, str] | None = None,
        on_run: RunListener | None = None,
        metric_calls: list[str] | None = None,
        then: list[list[str]] | None = None,
    ) -> None:
        self.sandbox = sandbox
        # the commands the chain runs after the training command (an evaluation script)
        self.then = [list(argv) for argv in then or []]
        # evaluation helpers' calls the baseline probes with a perfect prediction
        self.metric_calls = list(metric_calls or [])
        self.on_run = on_run
        self.env = env or {}
        self.argv = argv
        self.steps = steps
        self.timeout_s = timeout_s
        self.save_dir = save_dir
        self.runs: dict[str, Run] = {}

    def _config(
        self,
        changes: dict[str, InterventionValue],
        *,
        baseline: bool,
        train_loader: str | None,
        steps: int | None,
    ) -> Config:
        """The tracer's configuration of one run (UnknownIntervention for a change the
        tracer does not know)."""
        n = steps or (self.steps if baseline else min(self.steps, PROBE_STEPS))
        # a rerun as long as the run as written (`steps` given) goes the baseline's way:
        # traced to its budget, then fast-forwarded to the program's own end, so the
        # evaluation the program makes after its loop is reached at the same step count
        long = baseline or steps is not None
        return Config(
            max_steps=min(n, self.steps) if steps is not None and not baseline else n,
            detail_steps=25 if baseline else 5,
            max_total_steps=max(3000, 10 * n) if long else n,
            max_forwards=20000 if long else 4 * n + 50,
            max_wall_s=max(10.0, self.timeout_s - 5.0),
            fast_forward=long,
            probes=baseline,
            train_loader=train_loader,
            # the program's metric helpers are probed in every run: an intervention's
            # evaluation is read through them when the program scores outside torch
            metric_calls=self.metric_calls,
            interventions=tracer_interventions(changes),
            then=self.then,
        )

    def key(self, interventions: dict[str, InterventionValue], steps: int | None = None) -> str:
        if not interventions:
            return "baseline" if steps is None else f"baseline/{steps}"
        body = ",".join(
            f"{k}" if v is True else f"{k}={v}" for k, v in sorted(interventions.items())
        )
        return body if steps is None else f"{body}/{steps}"

    def baseline(self) -> Run:
        return self.many([{}], baseline=True)[0]

    def get(
        self,
        interventions: dict[str, InterventionValue],
        *,
        train_loader: str | None = None,
        steps: int | None = None,
    ) -> Run:
        return self.many([interventions], train_loader=train_loader, steps=steps)[0]

    def many(
        self,
        batch: list[dict[str, Any]],
        *,
        baseline: bool = False,
        train_loader: str | None = None,
        steps: int | None = None,
    ) -> list[Run]:
        todo = []
        for iv in batch:
            k = self.key(iv, steps)
            if k not in self.runs and all(k != self.key(t, steps) for t in todo):
                todo.append(iv)
        if todo:
            jobs = []
            for iv in todo:
                is_base = baseline and not iv
                cfg = self._config(iv, baseline=is_base, train_loader=train_loader, steps=steps)
                jobs.append((self.key(iv, steps), iv, cfg))
            with ThreadPoolExecutor(max_workers=self.sandbox.parallel) as pool:
                futures = [pool.submit(self._execute, *job) for job in jobs]
                done = [f.result() for f in futures]
            for run in done:
                self.runs[run.label] = run
        return [self.runs[self.key(iv, steps)] for iv in batch]

    def probe(self, code: str, timeout_s: float = 60.0) -> Run:
        """Run a probe snippet after the first optimizer step (not cached: each snippet
        differs). The snippet gets `timeout_s` on top of the run's own budget for reaching
        that step (the sandbox's wall and CPU limits grow by as much)."""
        cfg = self._config({}, baseline=False, train_loader=None, steps=1)
        wall = self.timeout_s + timeout_s
        cfg = replace(cfg, probe_code=code, max_total_steps=3, max_wall_s=wall - 5.0)
        base = self.sandbox.limits
        limits = base.model_copy(
            update={"wall_s": base.wall_s + timeout_s, "cpu_s": base.cpu_s + int(timeout_s)}
        )
        self._probes = getattr(self, "_probes", 0) + 1
        return self._execute(f"probe-{self._probes}", {"probe": True}, cfg, limits)

    def _execute(
        self,
        label: str,
        interventions: dict[str, InterventionValue],
        cfg: Config,
        limits: Limits | None = None,
    ) -> Run:
        """One run in the sandbox, told to the listener as it starts, progresses and ends."""
        started = time.perf_counter()
        running = True  # the poller may tick once more after the run ended: drop that tick

        def tell(kind: str, **fields: Any) -> None:
            if self.on_run is not None:
                seconds = round(time.perf_counter() - started, 1)
                self.on_run(RunEvent(
                    kind=kind, label=label, interventions=interventions,
                    budget=cfg.max_steps, seconds=seconds, **fields,
                ))  # fmt: skip

        def on_progress(progress: RunProgress) -> None:
            if running:
                tell("progress", steps=progress.steps, phase=progress.phase)

        tell("started")
        res = self.sandbox.run(
            self.argv, trace_config=cfg, label=label, env=self.env, limits=limits,
            on_progress=on_progress if self.on_run is not None else None,
        )  # fmt: skip
        running = False
        run = self._load(label, interventions, res)
        summary = run.summary()
        tell("finished", steps=summary.steps, status=summary.status)
        return run

    def _load(self, label: str, interventions: dict[str, Any], res: RunResult) -> Run:
        if res.trace_path is not None and self.save_dir is not None:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_=." else "_" for c in label)
            shutil.copy(res.trace_path, self.save_dir / f"{safe}.trace.json")
        return Run(
            label=label,
            interventions=interventions,
            result=res,
            trace=res.trace,
            trace_error=res.trace_error,
        )

    def summaries(self) -> list[RunSummary]:
        base = self.runs.get("baseline")
        return [r.summary(None if r is base else base) for r in self.runs.values()]
