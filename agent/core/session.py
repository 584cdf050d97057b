"""One investigation: the workspace copy, the code index and static findings, the
sandbox and its runs, and the protocol state. Policies act on a session only through
the tools in `agent.toolbox`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel

from torch_investigate.agent.core.answer import summarize
from torch_investigate.agent.core.facts import StageFacts
from torch_investigate.agent.core.protocol import Protocol
from torch_investigate.agent.core.runs import (
    DEFAULT_STEPS,
    DEFAULT_TIMEOUT_S,
    Run,
    RunListener,
    Runner,
)
from torch_investigate.agent.core.tool_args import Candidate
from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks import run_static_checks
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.helper_args import metric_calls
from torch_investigate.tools.command_line import shown_commands
from torch_investigate.tools.cpu_option import cpu_variants
from torch_investigate.tools.entry import EntryError, find_command
from torch_investigate.tools.gitfacts import git_facts
from torch_investigate.tools.records import CommandInfo, Finding, GitFacts, LayerStat, Report
from torch_investigate.tools.sandbox import Limits, Sandbox, SandboxError
from torch_investigate.tools.sandbox import isolation as isolation_mod
from torch_investigate.tools.workspace import Workspace, WorkspaceError

TOOL_VERSION = "0.1.0"


def _needs_gpu(run: Run) -> bool:
    return run.result.failure is not None and run.result.failure.kind == "gpu_required"


# what a map-style or iterable dataset runs when a loader yields its batches
DATASET_METHODS = ("__init__", "__len__", "__getitem__", "__iter__")


class InvestigationError(Exception):
    """Bad input or an environment problem: one line for the user and an exit code."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class Options(BaseModel):
    cmd: str | None = None
    steps: int = DEFAULT_STEPS
    timeout_s: float = DEFAULT_TIMEOUT_S
    static_only: bool = False
    python: str | None = None
    isolation: str = "auto"
    save_trace: Path | None = None
    memory_mb: int = Limits().memory_mb


class Session:
    def __init__(
        self,
        repo: Path,
        options: Options | None = None,
        on_run: RunListener | None = None,
        edit_copy: Callable[[Path], None] | None = None,
    ) -> None:
        """`on_run` hears every run of the training path start, progress and end;
        `edit_copy` changes the workspace copy before it is read (`investigate fix`
        applies a patch there: the repo itself is never touched)."""
        self.options = options or Options()
        self.on_run = on_run
        self.timings: dict[str, float] = {}
        self.notes: list[str] = []
        self.started = time.perf_counter()
        self.repo = Path(repo).expanduser()
        t = time.perf_counter()
        try:
            # bwrap mounts everything outside the run's copy read-only: large files can be
            # linked there instead of copied
            read_only = isolation_mod.choose(self.options.isolation) == "bwrap"
        except isolation_mod.IsolationError as e:
            raise InvestigationError(str(e)) from e
        try:
            self.workspace = Workspace.create(self.repo, link_read_only=read_only)
        except WorkspaceError as e:
            raise InvestigationError(str(e)) from e
        for left in self.workspace.skipped:
            self.notes.append(f"workspace: {left.path}: {left.reason}")
        self.timings["workspace"] = time.perf_counter() - t
        self.sandbox: Sandbox | None = None
        self.runner: Runner | None = None
        self.command: CommandInfo | None = None
        self.command_note = ""
        # what the stages established (the symptom, the fixed-batch fits...): returned by
        # their checks, recorded by `record_facts`
        self.facts = StageFacts()
        self.policy_name = "planner"
        self.candidates: dict[str, Finding] = {}  # C1, C2, ...: what run_stage_checks found
        try:
            if edit_copy is not None:
                edit_copy(self.workspace.root)
            self._prepare()
        except BaseException:
            self.close()
            raise

    def _prepare(self) -> None:
        root = self.workspace.root
        t = time.perf_counter()
        self.index = CodeIndex.build(root, exclude=self.workspace.ignored)
        if not self.index.files:
            raise InvestigationError(f"no Python files in {self.repo}")
        self.static_findings: list[Finding] = run_static_checks(self.index)
        self.timings["index"] = time.perf_counter() - t
        for skipped in self.index.skipped:
            self.notes.append(f"skipped {skipped.file}: {skipped.reason}")
        try:
            self.command = find_command(root, self.options.cmd, self.index)
        except EntryError as e:  # name the user's repo, not our copy of it
            raise InvestigationError(f"--cmd: {str(e).replace(str(root), str(self.repo))}") from e
        if self.command is None:
            self.command_note = (
                "no training command found (no README command, Makefile target or pyproject "
                "script, and no file whose top level reaches backward and an update); pass --cmd"
            )
            broken = [f"{p.file}:{p.line} ({p.message})" for p in self.index.parse_issues]
            if broken:
                self.command_note = (
                    f"no training command found; {', '.join(broken[:3])} does not parse "
                    "(a syntax error), so what it runs could not be read"
                )
        self.protocol = Protocol()
        if self.command is not None and not self.options.static_only:
            self._start_sandbox()

    def _start_sandbox(self) -> None:
        assert self.command is not None
        python = self.options.python or getattr(self.command, "interpreter", None) or sys.executable
        limits = Limits(wall_s=self.options.timeout_s, memory_mb=self.options.memory_mb)
        try:
            self.sandbox = Sandbox(
                self.workspace.root, python=python, limits=limits,
                isolation=self.options.isolation, origin=self.repo,
            )  # fmt: skip
        except SandboxError as e:
            raise InvestigationError(str(e)) from e
        env = dict(getattr(self.command, "env", {}) or {})
        if self.command.setup:
            self.notes.extend(self.sandbox.prepare(self.command.setup, env))
        if getattr(self.command, "then", None):
            self.notes.append(
                f"after training, its chain runs {shown_commands(self.command.then)} in the "
                "same traced run (each once the one before it succeeded)"
            )
        self.runner = self._runner(self.command.argv)

    def _runner(self, argv: list[str]) -> Runner:
        assert self.sandbox is not None and self.command is not None
        return Runner(
            self.sandbox,
            argv,
            steps=self.options.steps,
            timeout_s=self.options.timeout_s,
            save_dir=self.options.save_trace,
            env=dict(getattr(self.command, "env", {}) or {}),
            on_run=self.on_run,
            metric_calls=list(self.metric_helpers),
            then=list(getattr(self.command, "then", []) or []),
        )

    @cached_property
    def metric_helpers(self) -> dict[str, str]:
        """Evaluation helpers' calls (`file:line:i:j`) -> the helper (`file:line:name`)."""
        return dict(metric_calls(CheckContext(self.index, analysis(self.index))))

    @property
    def symptom(self) -> str | None:
        """What stage 1 read from the run; the protocol holds it, for its guardrails."""
        protocol = getattr(self, "protocol", None)
        return protocol.symptom if protocol is not None else None

    def record_facts(self, facts: StageFacts) -> None:
        """Keep what a stage's checks returned; the symptom goes to the protocol too."""
        self.facts = facts
        if facts.symptom != self.protocol.symptom:
            self.protocol.record_symptom(facts.symptom)

    # ---- evidence ------------------------------------------------------------------

    def add_candidate(self, finding: Finding) -> Candidate:
        """A finding the checks propose, kept under an id a policy can record it by."""
        cid = f"C{len(self.candidates) + 1}"
        self.candidates[cid] = finding
        return Candidate(id=cid, finding=finding)

    @property
    def can_run(self) -> bool:
        return self.runner is not None

    def baseline(self) -> Run | None:
        if self.runner is None:
            return None
        t = time.perf_counter()
        run = self.runner.baseline()
        if _needs_gpu(run) and self.command is not None and self.command.source != "--cmd":
            run = self._on_the_cpu(run)
        self.timings.setdefault("baseline_run", time.perf_counter() - t)
        if run.trace is not None and run.trace.ran_training:
            self.protocol.record_training_ran()
        return run

    def _on_the_cpu(self, run: Run) -> Run:
        """The command asked for a GPU this machine lacks: run the repo's own CPU variant
        of it instead (another documented command, or the script's device option), once,
        and say so; keep the failed run when no variant runs on the CPU."""
        assert self.command is not None and run.result.failure is not None
        before = "python " + " ".join(self.command.argv)
        env = dict(getattr(self.command, "env", {}) or {})
        tried = []
        for argv, why in cpu_variants(self.workspace.root, self.command.argv, env):
            runner = self._runner(argv)
            alt = runner.baseline()
            tried.append("python " + " ".join(argv))
            if not _needs_gpu(alt):
                self.runner = runner
                self.command = self.command.model_copy(
                    update={
                        "argv": argv,
                        "reason": f"{self.command.reason}; `{before}` needs a GPU "
                        f"({run.result.failure.message[:160]}), so its CPU variant ran: {why}",
                    }
                )
                self.notes.append(f"`{before}` needs a GPU; ran `{tried[-1]}` ({why})")
                return alt
        if tried:
            self.notes.append(
                f"`{before}` needs a GPU; its CPU variants needed one too: {'; '.join(tried)}"
            )
        else:
            self.notes.append(
                f"`{before}` needs a GPU and the repo offers no CPU option for it; pass --cmd "
                "with one"
            )
        return run

    def baseline_trace_functions(self) -> list[str]:
        """`file:function` of repo code seen running in the baseline (empty when it did not
        run): functions the tracer saw at a torch call, those that built a loader, and the
        methods that made the samples of a loader that yielded batches (a Dataset that only reads files and
        numpy, or runs in worker processes, makes no call the tracer sees)."""
        if self.runner is None:
            return []
        run = self.runner.runs.get("baseline")
        if run is None or run.trace is None:
            return []
        seen = list(run.trace.seen_functions)
        for loader in run.trace.loaders:
            built = loader.frame  # the function that built a loader ran (a train_dataloader())
            if built is not None:
                seen.append(f"{built.file}:{built.function}")
            cls = self.index.find_class(loader.dataset_class) if loader.dataset_class else None
            if cls is not None and loader.batches:
                seen += [f"{cls.file}:{m}" for m in DATASET_METHODS]
        return list(dict.fromkeys(seen))

    def ran_files(self) -> set[str]:
        """The repo files the baseline ran code of or imported (empty when it did not run)."""
        run = self.runner.runs.get("baseline") if self.runner is not None else None
        files = set(run.trace.loaded_files) if run is not None and run.trace is not None else set()
        return files | {f.rsplit(":", 1)[0] for f in self.baseline_trace_functions()}

    def git(self) -> GitFacts:
        """Git facts, with the recent commits that touched files on the training path."""
        files = {fn.split(":", 1)[0] for fn in self.baseline_trace_functions()}
        files |= {f.file for f in self.static_findings if f.file}
        if self.command and self.command.argv and self.command.argv[0].endswith(".py"):
            files.add(self.command.argv[0])
        return git_facts(self.repo, sorted(files))

    def gradient_flow(self) -> list[LayerStat]:
        """Per-parameter gradient norm, weight norm and update ratio from the baseline run."""
        run = self.runner.runs.get("baseline") if self.runner else None
        if run is None or run.trace is None:
            return []
        return [
            LayerStat(
                name=p.name,
                grad_norm=p.grad.mean_norm,
                weight_norm=p.weight_norm_start,
                update_ratio=p.update.mean_ratio,
            )
            for p in run.trace.parameters
            if p.registered and p.grad.observed
        ][:200]

    # ---- the report ----------------------------------------------------------------

    def report(self, **extra) -> Report:
        conclusion, reason = self.protocol.conclusion()
        self.timings["total"] = time.perf_counter() - self.started
        report = Report(
            tool_version=TOOL_VERSION,
            created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            repo=str(self.repo),
            git=self.git(),
            command=self.command,
            command_note=self.command_note,
            policy=self.policy_name,
            symptom=self.symptom,
            symptom_evidence=self.facts.symptom_evidence,
            stages=list(self.protocol.stages.values()),
            findings=self.protocol.ledger.all(),
            root_cause=self.protocol.root_cause,
            root_cause_explanation=self.protocol.explanation,
            conclusion=conclusion,
            conclusion_reason=reason,
            experiments=sorted(self.protocol.experiments, key=lambda e: e.order),
            not_yet=self.protocol.not_yet,
            isolation=self.sandbox.isolation if self.sandbox else "none",
            runs=self.runner.summaries() if self.runner else [],
            gradient_flow=self.gradient_flow(),
            timings={k: round(v, 3) for k, v in self.timings.items()},
            notes=self.notes + (self.sandbox.notes if self.sandbox else []),
            **extra,
        )
        report.summary = summarize(report)
        return report

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        self.workspace.cleanup()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
