"""The `investigate` command line.

    investigate PATH [options]      walk the protocol on a repo and print the report
    investigate schema              the report's JSON schema
    investigate chat PATH           an interactive session
    investigate bench [SUITE]       the benchmark (--ray [ADDRESS]: on a Ray cluster)
    investigate seed PATH --category ID --out DIR
    investigate replay FILE         re-render a saved trajectory

Exit codes: 0 the investigation finished; 1 with --fail-on confirmed when a confirmed
defect exists; 2 bad input; 3 inconclusive (the training path could not run).
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Find why a PyTorch model runs but does not learn.",
    context_settings={"help_option_names": ["-h", "--help"]},
)
SUBCOMMANDS = {"run", "schema", "chat", "bench", "seed", "replay"}

EXIT_OK, EXIT_CONFIRMED, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE = 0, 1, 2, 3
ENVIRONMENT_FAILURES = {
    "timeout",
    "out_of_memory",
    "network_blocked",
    "missing_data",
    "missing_module",
    "gpu_required",
    "interpreter",
    "output_limit",
    "killed",
}


class Format(str, Enum):
    md = "md"
    json = "json"
    sarif = "sarif"
    html = "html"


class FailOn(str, Enum):
    never = "never"
    confirmed = "confirmed"


# The LLM options, shared by `run --model` and `chat --model` (see agent/llm/options.py).
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="an LLM drives the investigation (any OpenAI-compatible endpoint: "
        "OPENAI_API_KEY, OPENAI_BASE_URL)",
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url", help="the endpoint, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL)"
    ),
]
MaxStepsOpt = Annotated[
    int | None, typer.Option("--max-steps", help="at most this many model requests (default 80)")
]
MaxTokensOpt = Annotated[
    int | None,
    typer.Option("--max-tokens", help="at most this many prompt+completion tokens (default 1M)"),
]
MaxCostOpt = Annotated[
    float | None,
    typer.Option(
        "--max-cost", help="stop at this cost in USD, when the price is known (default 2)"
    ),
]
PriceOpt = Annotated[
    str | None,
    typer.Option("--price-per-1k", help="IN,OUT: USD per 1k prompt and completion tokens"),
]
MaxFailuresOpt = Annotated[
    int | None,
    typer.Option(
        "--max-failures", help="end after this many refused/malformed calls in a row (default 4)"
    ),
]
LLMTimeoutOpt = Annotated[
    float | None, typer.Option("--llm-timeout", help="seconds per model request (default 120)")
]


def _llm_options(model, base_url, max_steps, max_tokens, max_cost, price, max_failures, timeout):
    from torch_investigate.agent.llm.options import LLMOptions

    return LLMOptions(
        model=model, base_url=base_url, max_steps=max_steps, max_tokens=max_tokens,
        max_cost=max_cost, price_per_1k=price, max_failures=max_failures, llm_timeout=timeout,
    )  # fmt: skip


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    typer.echo(f"investigate: error: {message}", err=True)
    raise typer.Exit(code)


def _progress(quiet: bool):
    """Per-stage progress on stderr, only for a person watching a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console

    console = Console(stderr=True)

    def on_event(name, arguments, result) -> None:
        if name == "run_stage_checks":
            stage = arguments.get("stage")
            console.print(f"[dim]stage {stage}[/dim] checked", highlight=False)
        elif name == "advance_stage":
            console.print(
                f"  -> {arguments.get('verdict')}: {str(arguments.get('reason', ''))[:100]}",
                highlight=False,
            )

    return on_event


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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr")] = False,
) -> None:
    from torch_investigate.agent.policy import investigate
    from torch_investigate.agent.render import render
    from torch_investigate.agent.session import InvestigationError, Options, Session

    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    options = Options(
        cmd=cmd, steps=steps, timeout_s=timeout, static_only=static_only, python=python,
        isolation=isolation, save_trace=save_trace,
    )  # fmt: skip
    llm = (
        _llm_options(model, base_url, max_steps, max_tokens, max_cost, price_per_1k, max_failures, llm_timeout)
        if model is not None
        else None
    )  # fmt: skip
    try:  # the policy and the trajectory path are checked before anything runs
        policy = _policy(llm)
        recorder = _recorder(path, llm is not None, trajectory)
    except InvestigationError as e:
        fail(e.message, e.exit_code)
    try:
        with Session(path, options) as session:
            progress = _chain(_progress(quiet), _llm_progress(quiet) if llm else None)
            investigate(session, policy, on_event=_chain(progress, recorder))
            report = session.report(**_extra(policy))
            failure = session.failure
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
    text = render(report, fmt.value)
    if output is not None:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror}")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
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
    elif failure is not None and failure.kind == "user_exception":
        where = f" at {failure.file}:{failure.line} ({failure.function})" if failure.file else ""
        typer.echo(f"investigate: the training command crashed{where}: {failure.message}", err=True)
    endpoint_error = getattr(policy, "endpoint_error", None)
    if endpoint_error:
        typer.echo(f"investigate: the LLM run ended early: {endpoint_error}", err=True)
        if code == EXIT_OK and not any(s.verdict == "defect" for s in report.stages):
            code = EXIT_INCONCLUSIVE
    if fail_on == FailOn.confirmed and report.conclusion == "defects_found":
        code = code or EXIT_CONFIRMED
    raise typer.Exit(code)


def _policy(llm):
    """The built-in planner, or the LLM policy `llm` (LLMOptions) describes."""
    if llm is None:
        from torch_investigate.agent.planner import Planner

        return Planner()
    return llm.policy()


def _llm_progress(quiet: bool):
    from torch_investigate.agent.llm.progress import llm_progress

    return llm_progress(quiet)


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


@app.command("schema", help="Print the JSON schema of the report (--format json).")
def schema() -> None:
    from torch_investigate.tools.records import report_json_schema

    sys.stdout.write(json.dumps(report_json_schema(), indent=2) + "\n")


@app.command("chat", help="An interactive debugging session on a repo (/help lists commands).")
def chat(
    path: Annotated[Path, typer.Argument(help="the repo (it is never modified)")],
    cmd: Annotated[str | None, typer.Option("--cmd", help="the training command")] = None,
    steps: Annotated[int, typer.Option(help="optimizer steps to trace")] = 200,
    timeout: Annotated[float, typer.Option(help="wall-clock limit per run, seconds")] = 120.0,
    static_only: Annotated[bool, typer.Option("--static-only", help="run nothing")] = False,
    isolation: Annotated[str, typer.Option(help="auto | bwrap | unshare | socket-guard")] = "auto",
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    transcript: Annotated[
        Path | None, typer.Option("--transcript", help="save the transcript to FILE")
    ] = None,
) -> None:
    from torch_investigate.agent.chat import run_chat
    from torch_investigate.agent.session import InvestigationError, Options

    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    options = Options(
        cmd=cmd, steps=steps, timeout_s=timeout, static_only=static_only, isolation=isolation
    )
    llm = (
        _llm_options(model, base_url, max_steps, max_tokens, max_cost, price_per_1k, max_failures, llm_timeout)
        if model is not None
        else None
    )  # fmt: skip
    try:
        code = run_chat(path, model=model, options=options, llm=llm, transcript=transcript)
    except InvestigationError as e:
        fail(e.message, e.exit_code)
    raise typer.Exit(code)


@app.command("bench", help="Run the benchmark suite and score the investigator.")
def bench(
    suite: Annotated[
        Path | None, typer.Argument(help="a generated suite folder (default: the full suite)")
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", help="parallel runs here (with --ray: the local instance's CPUs)"
        ),
    ] = 2,
    json_out: Annotated[Path | None, typer.Option("--json")] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="run the cases as Ray tasks: alone, on a new local instance; with ADDRESS "
            "(auto, ray://host:10001), on that cluster",
        ),
    ] = None,
    ray_cpus_per_case: Annotated[
        float | None,
        typer.Option(
            "--ray-cpus-per-case", help="CPUs each case reserves on Ray (default 1; may be 0.25)"
        ),
    ] = None,
) -> None:
    try:
        from torch_investigate.evals.bench import run_bench
    except ImportError:
        fail("the benchmark is not available yet in this build")
    if ray_cpus_per_case is not None and ray is None:
        fail("--ray-cpus-per-case needs --ray")
    code = run_bench(
        suite,
        jobs=jobs,
        json_out=json_out,
        ray=ray,
        ray_cpus_per_case=1.0 if ray_cpus_per_case is None else ray_cpus_per_case,
    )
    raise typer.Exit(code)


def _bare_ray(argv: list[str]) -> list[str]:
    """`bench --ray` with no ADDRESS means a new local instance: typer has no option with
    an optional value, so the missing value is filled in. A folder after --ray is the
    suite (no Ray address is a folder)."""
    if not argv or argv[0] != "bench" or "--ray" not in argv:
        return argv
    at = argv.index("--ray") + 1
    following = argv[at] if at < len(argv) else None
    if following is None or following.startswith("-") or Path(following).is_dir():
        return [*argv[:at], "local", *argv[at:]]
    return argv


@app.command("seed", help="Inject a taxonomy category into a copy of a repo.")
def seed(
    path: Annotated[Path, typer.Argument()],
    category: Annotated[str, typer.Option("--category")],
    out: Annotated[Path, typer.Option("--out")],
) -> None:
    try:
        from torch_investigate.evals.seeding.cli import seed_repo
    except ImportError:
        fail("seeding is not available yet in this build")
    raise typer.Exit(seed_repo(path, category, out))


@app.command("replay", help="Re-render the report of a saved trajectory.")
def replay(
    file: Annotated[Path, typer.Argument()],
    fmt: Annotated[Format, typer.Option("--format", "-f")] = Format.md,
) -> None:
    from torch_investigate.agent.llm.trajectory import TrajectoryError, replay_report

    try:
        text = replay_report(file, fmt.value)
    except TrajectoryError as e:
        fail(e.message, e.exit_code)
    sys.stdout.write(text)


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help"):
        argv = ["run", *argv]
    argv = _bare_ray(argv)
    try:
        app(args=argv, prog_name="investigate", standalone_mode=True)
    except KeyboardInterrupt:
        typer.echo("investigate: interrupted", err=True)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - never a traceback for a user; TI_DEBUG=1 shows it
        if os.environ.get("TI_DEBUG"):
            raise
        typer.echo(
            f"investigate: internal error: {type(e).__name__}: {e} (TI_DEBUG=1 shows the traceback)",
            err=True,
        )
        sys.exit(4)


if __name__ == "__main__":
    main()
