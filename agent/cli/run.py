"""`investigate PATH` (the `run` command): one investigation, its progress and exit code."""

from __future__ import annotations

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
    LLMTimeoutOpt,
    MaxCostOpt,
    MaxFailuresOpt,
    MaxStepsOpt,
    MaxTokensOpt,
    Mode,
    ModelOpt,
    PriceOpt,
    _llm_options,
    app,
    fail,
)


@app.command("run", help="Investigate a repo (the default command: `investigate PATH`).")
def run(
    path: Annotated[Path, typer.Argument(help="the repo to investigate (it is never modified)")],
    cmd: Annotated[
        str | None,
        typer.Option("--cmd", help='the training command, e.g. "python train.py --epochs 3"'),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="report format")] = Format.md,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="write the report to FILE instead of stdout"),
    ] = None,
    steps: Annotated[
        int, typer.Option(help="optimizer steps to trace before fast-forwarding")
    ] = 200,
    timeout: Annotated[
        float, typer.Option(help="wall-clock limit per run of the training path, seconds")
    ] = 120.0,
    static_only: Annotated[
        bool, typer.Option("--static-only", help="read the code only; run nothing")
    ] = False,
    python: Annotated[
        str | None, typer.Option("--python", help="interpreter of the repo's own environment")
    ] = None,
    isolation: Annotated[str, typer.Option(help="auto | bwrap | unshare | socket-guard")] = "auto",
    save_trace: Annotated[
        Path | None, typer.Option("--save-trace", help="keep every run's trace JSON in DIR")
    ] = None,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="exit 1 when a confirmed defect exists (for CI)")
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
            help="save the run's trajectory to FILE (LLM runs save one in the cache by default)",
        ),
    ] = None,
    mode: Annotated[
        Mode,
        typer.Option(
            "--mode",
            help="with --model: review (the planner walks, the model works on its weak points) "
            "or walk (the model walks every stage)",
        ),
    ] = Mode.review,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr")] = False,
) -> None:
    from torch_investigate.agent.core.policy import investigate
    from torch_investigate.agent.core.session import InvestigationError, Options, Session
    from torch_investigate.agent.render import render

    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    options = Options(
        cmd=cmd, steps=steps, timeout_s=timeout, static_only=static_only, python=python,
        isolation=isolation, save_trace=save_trace,
    )  # fmt: skip
    llm = (
        _llm_options(model, base_url, max_steps, max_tokens, max_cost, price_per_1k, max_failures, llm_timeout, mode.value)
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
    except KeyboardInterrupt:
        if recorder is not None and llm is not None:
            _save_trajectory(recorder, policy, None, trajectory, error="interrupted")
        raise
    if recorder is not None:
        _save_trajectory(recorder, policy, report, trajectory)
    _emit(report, render(report, fmt.value), fmt, output, quiet)
    code = exit_code(report, failure, training_ran, static_only, policy)
    if fail_on == FailOn.confirmed and report.conclusion == "defects_found":
        code = code or EXIT_CONFIRMED
    raise typer.Exit(code)


def exit_code(report, failure, training_ran: bool, static_only: bool, policy) -> int:
    """0, or 3 when the training path could not run (each with its line on stderr)."""
    code = EXIT_OK
    if (
        failure is not None
        and failure.kind in ENVIRONMENT_FAILURES
        and not any(s.verdict == "defect" for s in report.stages)
    ):
        typer.echo(f"investigate: the training command could not run: {failure.message}", err=True)
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
