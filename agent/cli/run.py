"""`investigate PATH` (the `run` command): one investigation, its progress and exit code."""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from torch_investigate.agent.cli.app import (
    ENVIRONMENT_FAILURES,
    EXIT_CONFIRMED,
    EXIT_INCONCLUSIVE,
    EXIT_OK,
    BaseUrlOpt,
    FailOn,
    Format,
    IsolationOpt,
    LLMTimeoutOpt,
    MaxCostOpt,
    MaxFailuresOpt,
    MaxStepsOpt,
    MaxTokensOpt,
    ModelOpt,
    ModeOpt,
    PriceOpt,
    QuietOpt,
    StepsOpt,
    TimeoutOpt,
    _llm_options,
    check_run_limits,
    command,
    fail,
    given,
)
from torch_investigate.agent.cli.interrupt import Interrupted


@command("run", help="Investigate a repo (the default command: `investigate PATH`).")
def run(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="the repo to investigate (it is never modified)")
    ],
    cmd: Annotated[
        str | None,
        typer.Option(
            "--cmd",
            metavar="COMMAND",
            help='the training command, e.g. "python train.py --epochs 3" (default: found in '
            "the repo)",
        ),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="the report's format")] = Format.md,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", metavar="FILE", help="write the report to FILE instead of stdout"
        ),
    ] = None,
    steps: StepsOpt = None,
    timeout: TimeoutOpt = None,
    static_only: Annotated[
        bool, typer.Option("--static-only", help="read the code only; run nothing")
    ] = False,
    python: Annotated[
        str | None,
        typer.Option("--python", metavar="PATH", help="interpreter of the repo's own environment"),
    ] = None,
    isolation: IsolationOpt = None,
    save_trace: Annotated[
        Path | None,
        typer.Option("--save-trace", metavar="DIR", help="keep every run's trace JSON in DIR"),
    ] = None,
    fail_on: Annotated[
        FailOn,
        typer.Option(
            "--fail-on",
            help="confirmed: exit 1 when a confirmed defect exists (for CI)",
        ),
    ] = FailOn.never,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    trajectory: Annotated[
        Path | None,
        typer.Option(
            "--trajectory",
            metavar="FILE",
            help="save the run's trajectory to FILE (LLM runs save one in the cache by default)",
        ),
    ] = None,
    mode: ModeOpt = None,
    quiet: QuietOpt = False,
) -> None:
    from torch_investigate.agent.core.answer import summary_of
    from torch_investigate.agent.core.policy import investigate
    from torch_investigate.agent.core.session import InvestigationError, Options, Session
    from torch_investigate.agent.render import render

    check_run_limits(steps, timeout)
    options = Options(**given(
        cmd=cmd, steps=steps, timeout_s=timeout, static_only=static_only, python=python,
        isolation=isolation, save_trace=save_trace,
    ))  # fmt: skip
    llm = (
        _llm_options(model, base_url, max_steps, max_tokens, max_cost, price_per_1k, max_failures, llm_timeout, mode.value if mode else None)
        if model is not None
        else None
    )  # fmt: skip
    try:  # the policy and the trajectory path are checked before anything runs
        policy = _policy(llm)
        recorder = _recorder(path, llm is not None, trajectory)
    except InvestigationError as e:
        fail(e.message, e.exit_code)
    progress = _progress(quiet, llm is not None)  # stages, runs, heartbeats on stderr
    try:
        with Session(path, options, on_run=progress.on_run if progress else None) as session:
            with _following(progress, session):
                syntax_error = _syntax_error(session, progress)
                if syntax_error is not None:  # nothing can run: one line, no report
                    typer.echo(f"investigate: {syntax_error}", err=True)
                    raise typer.Exit(EXIT_INCONCLUSIVE)
                investigate(
                    session, policy,
                    on_event=_chain(progress.after_call if progress else None, recorder),
                    on_start=progress.before_call if progress else None,
                )  # fmt: skip
            report = session.report(**_extra(policy))
            failure = session.facts.failure
            training_ran = session.protocol.training_ran
    except InvestigationError as e:
        if recorder is not None and llm is not None:  # e.g. 401: keep what the run did
            _save_trajectory(recorder, policy, None, trajectory, error=e.message)
        fail(e.message, e.exit_code)
    except (KeyboardInterrupt, Interrupted):
        if recorder is not None and llm is not None:
            _save_trajectory(recorder, policy, None, trajectory, error="interrupted")
        raise
    if recorder is not None:
        _save_trajectory(recorder, policy, report, trajectory)
    _emit(report, render(report, fmt.value), fmt, output, quiet)
    code = exit_code(report, failure, training_ran, static_only, policy)
    if fail_on == FailOn.confirmed and report.conclusion == "defects_found":
        code = code or EXIT_CONFIRMED
    if output is None and not quiet and sys.stdout.isatty():
        # A drawn report is hundreds of lines: the answer it opens with has scrolled away.
        typer.echo(f"investigate: {summary_of(report).headline}", err=True)
    raise typer.Exit(code)


def exit_code(report, failure, training_ran: bool, static_only: bool, policy) -> int:
    """0, or 3 when the training path could not run (each with its line on stderr)."""
    code = EXIT_OK
    if (
        failure is not None
        and failure.kind in ENVIRONMENT_FAILURES
        and not any(s.verdict == "defect" for s in report.stages)
    ):
        hint = (
            "; a slow run (a long first evaluation, data preparation, large steps on the "
            "CPU) gets more time with --timeout S and fewer steps with --steps N"
            if failure.kind == "timeout"
            else ""
        )
        typer.echo(
            f"investigate: the training command could not run: {failure.message}{hint}", err=True
        )
        code = EXIT_INCONCLUSIVE
    elif report.command is None and not static_only:
        typer.echo(f"investigate: {report.command_note}", err=True)
        code = EXIT_INCONCLUSIVE
    elif (
        not static_only
        and not training_ran
        and not any(s.verdict == "defect" for s in report.stages)
    ):
        run = next((s for s in report.stages[0].checklist if s.id == "run"), None)
        why = run.detail if run is not None and run.detail else "no training step was observed"
        typer.echo(f"investigate: inconclusive: {why}", err=True)
        code = EXIT_INCONCLUSIVE
    elif failure is not None and failure.kind == "user_exception":
        where = f" at {failure.file}:{failure.line} ({failure.function})" if failure.file else ""
        typer.echo(f"investigate: the training command crashed{where}: {failure.message}", err=True)
    endpoint_error = getattr(policy, "endpoint_error", None)
    if endpoint_error:
        typer.echo(f"investigate: the LLM run ended early: {endpoint_error}", err=True)
        if code == EXIT_OK and not any(s.verdict == "defect" for s in report.stages):
            code = EXIT_INCONCLUSIVE
    return code


def _syntax_error(session, progress) -> str | None:
    """`train.py:2: SyntaxError: '(' was never closed` when a file the training path needs
    does not parse, so nothing of it can run: found before the walk, whose every stage
    would only say that the path did not run. A file no command was found in is compiled
    here; a command that was found is started (the baseline, stage 1's first run, which the
    walk then reuses) and its failure read."""
    if session.options.static_only:
        return None
    if session.command is None:
        for issue in session.index.parse_issues:
            found = _compile_error(session.workspace.root, issue.file)
            if found is not None:
                return f"{found}; no training command could be read from it"
        return None
    if progress is not None:  # the run below is stage 1's: say so first
        progress.before_call("run_stage_checks", {"stage": 1})
    run = session.baseline()
    failure = run.result.failure if run is not None else None
    if failure is None or failure.kind != "syntax_error":
        return None
    said = re.search(
        rf"\({re.escape(failure.exception_type or '')}: (?P<text>.*)\): nothing", failure.message
    )
    what = f"{failure.exception_type}: {said['text']}" if said else failure.message
    where = f"{failure.file}:{failure.line}: " if failure.file and failure.line else ""
    return f"{where}{what}"


def _compile_error(root: Path, file: str) -> str | None:
    """Python's own word on a file tree-sitter could not parse (it may accept what a
    newer grammar allows): `train.py:2: SyntaxError: '(' was never closed`, or None."""
    try:
        source = (root / file).read_bytes()
        compile(source, file, "exec", dont_inherit=True)
    except SyntaxError as e:
        return f"{file}:{e.lineno}: {type(e).__name__}: {e.msg}"
    except (OSError, ValueError):
        return None
    return None


def _emit(report, text: str, fmt: Format, output: Path | None, quiet: bool) -> None:
    """The report to FILE (and one line on stderr saying so), drawn for a terminal, or
    as its text on a pipe."""
    if output is not None:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror}")
        if not quiet:
            typer.echo(f"investigate: wrote {output} ({_verdict(report)})", err=True)
        return
    if fmt == Format.md and sys.stdout.isatty():
        from torch_investigate.agent.render.terminal import print_markdown

        print_markdown(text)
        return
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _verdict(report) -> str:
    """A few words of the answer for the `wrote FILE` line."""
    s = report.summary
    if s is None:
        return report.conclusion
    if s.root_cause is not None:
        rc = s.root_cause
        at = (
            f" at {rc.file}:{rc.line}"
            if rc.file and rc.line
            else (f" in {rc.file}" if rc.file else "")
        )
        return f"root cause: {rc.category}{at}"
    return {"no_defect_found": "no defect found", "inconclusive": "inconclusive"}.get(
        s.verdict, "defects found, root cause not confirmed"
    )


def _policy(llm):
    """The built-in planner, or the LLM policy `llm` (LLMOptions) describes."""
    if llm is None:
        from torch_investigate.agent.core.planner import Planner

        return Planner()
    return llm.investigator()


def _progress(quiet: bool, is_llm: bool):
    """The progress display on stderr (None with --quiet): agent/cli/progress.py."""
    from torch_investigate.agent.cli.progress import Progress

    return Progress.open(quiet, llm=is_llm)


@contextmanager
def _following(progress, session):
    """The display names the session's stages; its status line ends with the walk."""
    if progress is None:
        yield
        return
    progress.follow(session.protocol)
    try:
        yield
    finally:
        progress.close()


def _recorder(repo: Path, is_llm: bool, trajectory: Path | None):
    """Records every tool call for the trajectory: always for an LLM run, else on request."""
    if not is_llm and trajectory is None:
        return None
    from torch_investigate.agent.llm.trajectory import Recorder, outside_repo

    if trajectory is not None:
        outside_repo(trajectory, repo)  # refuse before running, not after
    return Recorder(repo)


def _save_trajectory(recorder, policy, report, path: Path | None, error: str | None = None) -> None:
    from torch_investigate.agent.llm.trajectory import TrajectoryError, write_run

    try:
        saved = write_run(recorder, policy, report, path, error=error)
    except TrajectoryError as e:
        typer.echo(f"investigate: trajectory not saved: {e.message}", err=True)
        return
    typer.echo(f"investigate: trajectory saved to {saved}", err=True)


def _chain(*handlers):
    """One on_event that calls each handler that is not None."""
    live = [h for h in handlers if h is not None]
    if not live:
        return None

    def on_event(name, arguments, result) -> None:
        for handler in live:
            handler(name, arguments, result)

    return on_event


def _extra(policy) -> dict:
    usage = getattr(policy, "usage", None)
    return {"llm": usage} if usage is not None else {}
