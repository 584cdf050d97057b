"""`investigate bisect`: the commit that broke learning, and why.

    report = bisect(Path("repo"), "v1.0", "HEAD", BisectOptions(steps=60))

Every probed commit is checked out into its own temporary worktree (tools/commits.py)
and runs the same bounded learning check: a Session on the checkout, stage 1's
checks (the baseline run under the tracer and the reading of its curve), and a
measured comparison of where its loss settled with the good commit's
(agent/bisect/measure.py). The search halves the first-parent commits between good
and bad on that verdict; a commit that cannot run is skipped and a neighbour tried,
as `git bisect skip` does. The first bad commit's session stays open, so the full
investigation (the planner, as `investigate PATH` runs it) reuses its baseline run.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from torch_investigate.agent.bisect.measure import RULE, eval_level, judge, train_level
from torch_investigate.agent.bisect.records import BisectReport, Conclusion, Probe
from torch_investigate.agent.checks.base import run_checks
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.runs import DEFAULT_STEPS, DEFAULT_TIMEOUT_S, Run
from torch_investigate.agent.core.session import TOOL_VERSION, InvestigationError, Options, Session
from torch_investigate.tools.commits import (
    History,
    HistoryError,
    checkout,
    detail,
    history,
    subject,
)
from torch_investigate.tools.entry import EntryError, find_command, parse_command
from torch_investigate.tools.records import Report, Stage


class BisectError(Exception):
    """Bad input (exit 2) or nothing to run (exit 3): one line for the user."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class BisectOptions(BaseModel):
    cmd: str | None = None
    steps: int = DEFAULT_STEPS
    timeout_s: float = DEFAULT_TIMEOUT_S
    python: str | None = None
    isolation: str = "auto"
    investigate: bool = True  # run the full investigation on the first bad commit


OnProbe = Callable[[Probe], None]


def bisect(
    path: Path, good: str, bad: str, options: BisectOptions, on_probe: OnProbe | None = None
) -> BisectReport:
    try:
        walk = history(Path(path), good, bad)
    except HistoryError as e:
        raise BisectError(str(e)) from None
    return bisect_history(Path(path), walk, options, on_probe)


def bisect_history(
    path: Path, walk: History, options: BisectOptions, on_probe: OnProbe | None = None
) -> BisectReport:
    """Bisect the commits `walk` lists (see tools.commits.history)."""
    with Bisection(path, walk, options, on_probe) as bisection:
        return bisection.run()


@dataclass
class ProbedCommit:
    """A probed commit; its session (and worktree) stay open while it may be the answer."""

    probe: Probe
    session: Session | None
    stack: ExitStack

    def close(self) -> None:
        self.stack.close()


def pick(lo: int, hi: int, skipped: set[int]) -> int | None:
    """The next index to probe strictly between lo (good) and hi (bad): the middle,
    else the nearest untried neighbour of it (`git bisect skip`)."""
    middle = (lo + hi + 1) // 2
    for distance in range(hi - lo):
        for index in (middle + distance, middle - distance):
            if lo < index < hi and index not in skipped:
                return index
    return None


class Bisection:
    def __init__(self, path: Path, walk: History, options: BisectOptions, on_probe) -> None:
        self.path = path
        self.walk = walk
        self.options = options
        self.on_probe = on_probe
        self.name = Path(walk.repo.working_tree_dir or "repo").name
        self.probes: list[Probe] = []
        self.held: ProbedCommit | None = None  # the latest bad commit: the answer so far
        self.cmd, self.cmd_source = self._command()

    # ---- the search ---------------------------------------------------------------

    def run(self) -> BisectReport:
        reference = self._reference()
        if reference.status == "skipped":
            text = f"the good commit could not be judged: {reference.reason}"
            return self._report("not_judged", text)
        commits = self.walk.commits
        lo, hi, skipped = -1, len(commits) - 1, set()
        while (index := pick(lo, hi, skipped)) is not None:
            status = self._probe_at(index, reference).status
            if status == "good":
                lo = index
            elif status == "bad":
                hi = index
            else:
                skipped.add(index)
        return self._conclude(reference, lo, hi, skipped)

    def _conclude(self, reference: Probe, lo: int, hi: int, skipped: set[int]) -> BisectReport:
        commits = self.walk.commits
        left = sorted(i for i in skipped if lo < i < hi)
        if left:
            shas = [commits[i] for i in [*left, hi]]
            text = "skipped commits leave several candidates for the first bad commit: " + (
                ", ".join(s[:10] for s in shas)
            )
            return self._report("ambiguous", text, candidates=shas)
        if self.held is None:  # every probe learned like good: the bad commit itself decides
            self._probe_at(hi, reference)
        held = self.held
        if held is None or held.probe.sha != commits[hi]:
            last = self.probes[-1]
            if last.status == "skipped":
                text = f"the bad commit could not be judged: {last.reason}"
                return self._report("ambiguous", text, candidates=[commits[hi]])
            text = f"the bad commit learns like the good one under this budget ({last.reason})"
            return self._report("no_regression", text)
        return self._found(held)

    def _found(self, held: ProbedCommit) -> BisectReport:
        sha = held.probe.sha
        text = f"first bad commit {sha[:10]} {held.probe.subject}: {held.probe.reason}"
        investigation = self._investigate(held) if self.options.investigate else None
        return self._report(
            "found",
            text,
            first_bad=sha,
            first_bad_commit=detail(self.walk.repo, sha),
            investigation=investigation,
        )

    # ---- one commit ---------------------------------------------------------------

    def _reference(self) -> Probe:
        found = self._checkout(self.walk.good, 0)
        found.close()
        probe, train = found.probe, found.probe.train
        if train is None or train.settled is None:
            probe.status = "skipped"
            probe.reason = probe.reason or "the good commit's training loss is not finite"
            return self._emit(probe)
        probe.reason = f"training loss settled over {train.steps} steps: {fmt(train.settled)}"
        if probe.eval is not None:
            probe.reason += (
                f"; evaluation loss at step {probe.eval.steps}: {fmt(probe.eval.settled)}"
            )
        return self._emit(probe)

    def _probe_at(self, index: int, reference: Probe) -> Probe:
        found = self._checkout(self.walk.commits[index], index + 1)
        probe = found.probe
        if probe.train is not None:  # it ran and trained: judge it
            probe.status, probe.margin, probe.reason = judge(reference, probe)
        if probe.status == "bad":
            if self.held is not None:
                self.held.close()
            self.held = found
        else:
            found.close()
        return self._emit(probe)

    def _emit(self, probe: Probe) -> Probe:
        self.probes.append(probe)
        if self.on_probe is not None:
            self.on_probe(probe)
        return probe

    def _checkout(self, sha: str, position: int) -> ProbedCommit:
        """The commit checked out and run once under the tracer (its stage 1 checks)."""
        stack = ExitStack()
        try:
            tree = stack.enter_context(checkout(self.walk.repo, sha, self.name))
            base = Probe(sha=sha, subject=subject(self.walk.repo, sha), position=position,
                         status="reference" if position == 0 else "skipped", reason="")  # fmt: skip
            try:
                session = stack.enter_context(Session(tree / self.walk.prefix, self._options()))
            except InvestigationError as e:
                return ProbedCommit(_skipped(base, e.message), None, stack)
            session.record_facts(run_checks(session, Stage.SYMPTOM).facts)
            return ProbedCommit(_measured(base, session, self.options.steps), session, stack)
        except BaseException:
            stack.close()
            raise

    def _options(self) -> Options:
        o = self.options
        return Options(cmd=self.cmd, steps=o.steps, timeout_s=o.timeout_s, python=o.python,
                       isolation=o.isolation)  # fmt: skip

    def _command(self) -> tuple[str, str]:
        """The training command every commit runs: --cmd, else found once at the bad commit."""
        if self.options.cmd is not None:
            try:
                parse_command(self.options.cmd)
            except EntryError as e:
                raise BisectError(f"--cmd: {e}") from None
            return self.options.cmd, "--cmd"
        with checkout(self.walk.repo, self.walk.bad, self.name) as tree:
            found = find_command(tree / self.walk.prefix)
        if found is None:
            raise BisectError("no training command found at the bad commit; pass --cmd", 3)
        env = [f"{k}={shlex.quote(v)}" for k, v in found.env.items()]
        return " ".join([*env, shlex.join(["python", *found.argv])]), found.source

    # ---- the result ------------------------------------------------------------------

    def _investigate(self, held: ProbedCommit) -> Report:
        assert held.session is not None
        investigate(held.session, Planner())
        report = held.session.report()
        note = f"investigated a checkout of commit {held.probe.sha} (the first bad commit)"
        update = {"repo": str(self.path), "notes": [note, *report.notes]}
        if report.command is not None and self.cmd_source != "--cmd":
            reason = "found at the bad commit; bisect ran it at every commit"
            update["command"] = report.command.model_copy(
                update={"source": self.cmd_source, "reason": reason}
            )
        return report.model_copy(update=update)

    def _report(self, conclusion: Conclusion, text: str, **found) -> BisectReport:
        o = self.options
        return BisectReport(
            tool_version=TOOL_VERSION, repo=str(self.path), good=self.walk.good,
            bad=self.walk.bad, command=self.cmd, command_source=self.cmd_source, steps=o.steps,
            timeout_s=o.timeout_s, commits=len(self.walk.commits), rule=RULE,
            probes=self.probes, runs=len(self.probes), conclusion=conclusion,
            conclusion_text=text, **found,
        )  # fmt: skip

    def close(self) -> None:
        if self.held is not None:
            self.held.close()
            self.held = None

    def __enter__(self) -> Bisection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _skipped(probe: Probe, reason: str) -> Probe:
    return probe.model_copy(update={"status": "skipped", "reason": reason})


def _measured(probe: Probe, session: Session, steps: int) -> Probe:
    """The probe with its loss levels, or skipped with the reason the run gives."""
    run = session.baseline()
    update = {"symptom": session.symptom, "symptom_evidence": session.facts.symptom_evidence}
    if run is not None:
        update["wall_s"] = round(run.result.wall_s, 3)
    probe = probe.model_copy(update=update)
    reason = _cannot_judge(run)
    if reason is not None:
        return _skipped(probe, reason)
    assert run is not None and run.trace is not None
    train = train_level(run.trace, steps)
    if train is None:
        return _skipped(probe, "no training loss was recorded")
    return probe.model_copy(update={"train": train, "eval": eval_level(run.trace, train.first)})


def _cannot_judge(run: Run | None) -> str | None:
    """Why a run says nothing about learning (a crash, a missing file, no training)."""
    if run is None:
        return "the training command cannot run"
    failure, trace = run.result.failure, run.trace
    if trace is not None and trace.error is not None:
        frame = trace.error.repo_frame
        at = f" at {frame.file}:{frame.line}" if frame else ""
        return f"crashed{at}: {trace.error.type}: {trace.error.message[:200]}"
    if failure is not None:
        return f"{failure.kind}: {failure.message[:200]}"
    if trace is None:
        return run.trace_error or "no trace was written"
    if not trace.ran_training:
        return "the command ran but no backward pass was observed"
    return None
