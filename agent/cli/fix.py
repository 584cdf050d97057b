"""`investigate fix PATH`: the investigation, then a verified patch per confirmed defect."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from torch_investigate.agent.cli.app import (
    BaseUrlOpt,
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
    command,
    fail,
)
from torch_investigate.agent.cli.run import _emit, _extra, _following, _policy, _progress, exit_code


@command(
    "fix",
    help="Investigate a repo, then write a source patch for each confirmed defect and verify "
    "it by rerunning the training path on a patched copy. The repo changes only with --apply.",
)
def fix(
    path: Annotated[Path, typer.Argument(help="the repo (changed only with --apply)")],
    cmd: Annotated[
        str | None,
        typer.Option("--cmd", help='the training command, e.g. "python train.py --epochs 3"'),
    ] = None,
    apply: Annotated[
        bool,
        typer.Option(
            "--apply",
            help="write the verified patches into the repo (a git tree without uncommitted "
            "changes, unless --force)",
        ),
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="with --apply: write even on a dirty or non-git tree")
    ] = False,
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
    python: Annotated[
        str | None, typer.Option("--python", help="interpreter of the repo's own environment")
    ] = None,
    isolation: Annotated[str, typer.Option(help="auto | bwrap | unshare | socket-guard")] = "auto",
    candidates: Annotated[
        int, typer.Option("--candidates", help="mechanical edits verified per finding, at most")
    ] = 3,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    mode: Annotated[
        Mode, typer.Option("--mode", help="with --model: how the investigation runs (review|walk)")
    ] = Mode.review,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr")] = False,
) -> None:
    from torch_investigate.agent.core.policy import investigate
    from torch_investigate.agent.core.session import InvestigationError, Options, Session
    from torch_investigate.agent.fix.apply import ApplyRefused, apply_patches, check_writable
    from torch_investigate.agent.fix.patcher import patch_findings
    from torch_investigate.agent.render import render

    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    if candidates < 1:
        fail("--candidates must be at least 1")
    if force and not apply:
        fail("--force goes with --apply")
    if apply:
        try:  # refused before anything runs
            check_writable(path.expanduser(), force)
        except ApplyRefused as e:
            fail(str(e))
    options = Options(cmd=cmd, steps=steps, timeout_s=timeout, python=python, isolation=isolation)
    llm = (
        _llm_options(model, base_url, max_steps, max_tokens, max_cost, price_per_1k, max_failures, llm_timeout, mode.value)
        if model is not None
        else None
    )  # fmt: skip
    try:
        policy = _policy(llm)
        proposer = _proposer(llm)
    except InvestigationError as e:
        fail(e.message, e.exit_code)
    progress = _progress(quiet, llm is not None)
    say = None if quiet else (lambda text: typer.echo(text, err=True))
    try:
        with Session(path, options, on_run=progress.on_run if progress else None) as session:
            with _following(progress, session):
                investigate(
                    session, policy,
                    on_event=progress.after_call if progress else None,
                    on_start=progress.before_call if progress else None,
                )  # fmt: skip
            report = session.report(**_extra(policy))
            report.patches = patch_findings(
                session, report, proposer=proposer, say=say, max_candidates=candidates
            )
            failure, training_ran = session.facts.failure, session.protocol.training_ran
    except InvestigationError as e:
        fail(e.message, e.exit_code)
    if proposer is not None and report.llm is not None:
        report.llm = proposer.usage(report.llm)
    if apply:
        report.notes.extend(apply_patches(path.expanduser(), report.patches))
    _emit(report, render(report, fmt.value), fmt, output, quiet)
    raise typer.Exit(exit_code(report, failure, training_ran, False, policy))


def _proposer(llm):
    """With --model, the model proposes diffs for what the planner could not patch."""
    if llm is None:
        return None
    from torch_investigate.agent.fix.propose import ModelProposer

    return ModelProposer(llm.policy())
