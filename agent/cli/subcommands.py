"""The other commands: schema, chat, bench, seed, replay, bisect, mcp."""

from __future__ import annotations

import itertools
import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from torch_investigate.agent.cli.app import (
    EXIT_INCONCLUSIVE,
    BaseUrlOpt,
    Format,
    IsolationOpt,
    LLMTimeoutOpt,
    MaxCostOpt,
    MaxFailuresOpt,
    MaxStepsOpt,
    MaxTokensOpt,
    Mode,
    ModelOpt,
    PriceOpt,
    QuietOpt,
    StepsOpt,
    TimeoutOpt,
    _llm_options,
    _write,
    check_run_limits,
    command,
    fail,
    given,
)


@command("schema", help="Print the JSON schema of the report (--format json).")
def schema() -> None:
    from torch_investigate.tools.records import report_json_schema

    sys.stdout.write(json.dumps(report_json_schema(), indent=2) + "\n")


@command("chat", help="An interactive debugging session on a repo (/help lists commands).")
def chat(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="the repo (it is never modified)")],
    cmd: Annotated[
        str | None, typer.Option("--cmd", metavar="COMMAND", help="the training command")
    ] = None,
    steps: StepsOpt = None,
    timeout: TimeoutOpt = None,
    static_only: Annotated[bool, typer.Option("--static-only", help="run nothing")] = False,
    isolation: IsolationOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    transcript: Annotated[
        Path | None,
        typer.Option("--transcript", metavar="FILE", help="save the transcript to FILE"),
    ] = None,
) -> None:
    from torch_investigate.agent.chat.session import run_chat
    from torch_investigate.agent.core.session import InvestigationError, Options

    check_run_limits(steps, timeout)
    options = Options(**given(
        cmd=cmd, steps=steps, timeout_s=timeout, static_only=static_only, isolation=isolation
    ))  # fmt: skip
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


@command("bench", help="Run the benchmark suite and score the investigator.")
def bench(
    suite: Annotated[
        Path | None,
        typer.Argument(metavar="SUITE", help="a generated suite folder (default: the full suite)"),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            help="parallel runs here (with --ray: the local instance's CPUs)",
        ),
    ] = 2,
    json_out: Annotated[
        Path | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="write the scores and every case's result to FILE; each run is cached beside "
            "it, so an interrupted benchmark resumes",
        ),
    ] = None,
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
            "--ray-cpus-per-case",
            metavar="CPUS",
            help="CPUs each case reserves on Ray (default 1; may be 0.25)",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="NAME",
            help="score this LLM (OpenAI-compatible endpoint) instead of the planner",
        ),
    ] = None,
    mode: Annotated[
        Mode, typer.Option("--mode", help="with --model: review or walk")
    ] = Mode.review,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    rename: Annotated[
        bool,
        typer.Option(
            "--rename", help="also score the suite with every repo name neutralized (evals/rename)"
        ),
    ] = False,
    restyle: Annotated[
        bool,
        typer.Option("--restyle", help="as --rename, with the training loop moved too"),
    ] = False,
    repos: Annotated[
        Path | None,
        typer.Option(
            "--repos",
            metavar="DIR",
            help="evals/real only: the folder holding the fetched repos (owner+name/ as fetch "
            "leaves them, or clones)",
        ),
    ] = None,
    patch: Annotated[
        bool,
        typer.Option(
            "--patch",
            help="run `investigate fix` on every case and score its patches (patch and "
            "verified rates, the seeded fix's metric recovered)",
        ),
    ] = False,
) -> None:
    try:
        from torch_investigate.evals.bench import run_bench
        from torch_investigate.evals.benchmark.records import LLMSpec
    except ImportError:
        fail("the benchmark is not available yet in this build")
    if ray_cpus_per_case is not None and ray is None:
        fail("--ray-cpus-per-case needs --ray")
    given = dict(base_url=base_url, max_steps=max_steps, max_tokens=max_tokens, max_cost=max_cost,
                 price_per_1k=price_per_1k, max_failures=max_failures, llm_timeout=llm_timeout)  # fmt: skip
    if model is None and (mode != Mode.review or any(v is not None for v in given.values())):
        fail("--mode and the LLM options need --model")
    llm = LLMSpec(model=model, mode=mode.value, **given) if model is not None else None
    cpus = 1.0 if ray_cpus_per_case is None else ray_cpus_per_case
    if rename or restyle:
        if repos is not None:
            fail("--repos is for the real-repo suite (evals/real), not --rename/--restyle")
        from torch_investigate.evals.bench import DEFAULT_SUITE
        from torch_investigate.evals.rename.bench import run_variant

        code = run_variant(
            suite or DEFAULT_SUITE, "restyle" if restyle else "rename", jobs=jobs,
            json_out=json_out, ray=ray, ray_cpus_per_case=cpus, llm=llm,
        )  # fmt: skip
        raise typer.Exit(code)
    code = run_bench(
        suite,
        jobs=jobs,
        json_out=json_out,
        ray=ray,
        ray_cpus_per_case=cpus,
        llm=llm,
        repos=repos,
        patch=patch,
    )
    raise typer.Exit(code)


def bare_ray(argv: list[str]) -> list[str]:
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


@command("seed", help="Inject a taxonomy category into a copy of a repo.")
def seed(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="the repo (it is only read)")],
    category: Annotated[
        str,
        typer.Option(
            "--category", metavar="ID", help="a taxonomy category, e.g. missing_zero_grad"
        ),
    ],
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="where the seeded copy goes (new or empty)")
    ],
) -> None:
    try:
        from torch_investigate.evals.seeding.cli import seed_repo
    except ImportError:
        fail("seeding is not available yet in this build")
    raise typer.Exit(seed_repo(path, category, out))


@command("replay", help="Re-render the report of a saved trajectory.")
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a trajectory an LLM run saved")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="the report's format")] = Format.md,
) -> None:
    from torch_investigate.agent.llm.trajectory import TrajectoryError, replay_report

    try:
        text = replay_report(file, fmt.value)
    except TrajectoryError as e:
        fail(e.message, e.exit_code)
    sys.stdout.write(text)


class BisectFormat(str, Enum):
    md = "md"
    json = "json"


BISECT_EPILOG = """\b
Examples:
  investigate bisect ./repo --good v1.2 --bad HEAD
  investigate bisect ./repo --good a1b2c3d --bad main --cmd "python train.py"
  investigate bisect ./repo --good v1.2 --bad HEAD --steps 60 -f json

\b
Exit codes:
  0  a first bad commit is named (then investigated)
  2  bad input: not a git repo, an unknown revision, good not an ancestor
     of bad, or good equal to bad
  3  no first bad commit can be named: no commit could be judged, only
     skipped commits are left, or the bad commit learns like the good one
"""


@command(
    "bisect",
    help="Find the commit that broke learning, then investigate it. Each probed commit runs in "
    "its own temporary worktree; your checkout is never touched.",
    epilog=BISECT_EPILOG,
)
def bisect(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="the repo (its checkout is never touched)")
    ],
    good: Annotated[str, typer.Option("--good", metavar="REV", help="a commit that learns")],
    bad: Annotated[str, typer.Option("--bad", metavar="REV", help="a later commit that does not")],
    cmd: Annotated[
        str | None,
        typer.Option(
            "--cmd",
            metavar="COMMAND",
            help="the training command (default: found at the bad commit)",
        ),
    ] = None,
    steps: Annotated[
        int | None,
        typer.Option(
            "--steps", metavar="N", help="optimizer steps traced per commit (default {steps})"
        ),
    ] = None,
    timeout: TimeoutOpt = None,
    fmt: Annotated[
        BisectFormat,
        typer.Option(
            "--format",
            "-f",
            help="md: the table, the first bad commit and its investigation; "
            "json: the same as one record",
        ),
    ] = BisectFormat.md,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", metavar="FILE", help="write the result to FILE instead of stdout"
        ),
    ] = None,
    python: Annotated[
        str | None,
        typer.Option("--python", metavar="PATH", help="interpreter of the repo's own environment"),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    from torch_investigate.tools.commits import HistoryError, history

    check_run_limits(steps, timeout)
    try:  # bad input is answered before the investigator (and its imports) load
        walk = history(path, good, bad)
    except HistoryError as e:
        fail(str(e))
    from torch_investigate.agent.bisect.search import BisectError, BisectOptions, bisect_history
    from torch_investigate.agent.render.bisect_md import to_bisect_json, to_bisect_markdown

    options = BisectOptions(**given(cmd=cmd, steps=steps, timeout_s=timeout, python=python))
    try:
        result = bisect_history(path, walk, options, on_probe=None if quiet else _probe_lines())
    except BisectError as e:
        fail(e.message, e.exit_code)
    text = to_bisect_json(result) if fmt == BisectFormat.json else to_bisect_markdown(result)
    _write(text, output)
    if result.first_bad is None:
        typer.echo(f"investigate: no first bad commit: {result.conclusion_text}", err=True)
        raise typer.Exit(EXIT_INCONCLUSIVE)


def _probe_lines():
    """One progress line on stderr per probed commit, numbered in the order they ran."""
    runs = itertools.count(1)

    def on_probe(probe) -> None:
        from torch_investigate.agent.cli.progress import MAX_WIDTH, one_line

        head = f"bisect: run {next(runs)}: {probe.sha[:10]} {probe.status:<9}"
        typer.echo(one_line(f"{head} {probe.subject[:50]!r}: {probe.reason}", MAX_WIDTH), err=True)

    return on_probe


@command("mcp", help="Serve the investigation tools over MCP on stdio, for other agents.")
def mcp(
    steps: StepsOpt = None,
    timeout: TimeoutOpt = None,
    isolation: IsolationOpt = None,
) -> None:
    from torch_investigate.agent.core.session import Options
    from torch_investigate.tools.sandbox.isolation import IsolationError, choose

    try:
        from torch_investigate.agent.mcp.server import serve
    except ModuleNotFoundError as e:
        if e.name != "mcp" and not (e.name or "").startswith("mcp."):
            raise
        from torch_investigate.tools.extras import install_hint

        fail(f"the MCP server needs the mcp package; install it with: {install_hint('mcp')}")
    check_run_limits(steps, timeout)
    options = Options(**given(steps=steps, timeout_s=timeout, isolation=isolation))
    try:
        choose(options.isolation)  # refuse an isolation this machine lacks before a client connects
    except IsolationError as e:
        fail(str(e))
    raise typer.Exit(serve(options))
