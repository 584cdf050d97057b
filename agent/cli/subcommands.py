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
    LLMTimeoutOpt,
    MaxCostOpt,
    MaxFailuresOpt,
    MaxStepsOpt,
    MaxTokensOpt,
    Mode,
    ModelOpt,
    PriceOpt,
    _llm_options,
    _write,
    app,
    fail,
)


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
    from torch_investigate.agent.chat.session import run_chat
    from torch_investigate.agent.core.session import InvestigationError, Options

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
    model: Annotated[
        str | None,
        typer.Option(
            "--model", help="score this LLM (OpenAI-compatible endpoint) instead of the planner"
        ),
    ] = None,
    mode: Annotated[
        Mode, typer.Option("--mode", help="with --model: review (default) or walk")
    ] = Mode.review,
    base_url: BaseUrlOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    price_per_1k: PriceOpt = None,
    max_failures: MaxFailuresOpt = None,
    llm_timeout: LLMTimeoutOpt = None,
    repos: Annotated[
        Path | None,
        typer.Option(
            "--repos",
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
    code = run_bench(
        suite,
        jobs=jobs,
        json_out=json_out,
        ray=ray,
        ray_cpus_per_case=1.0 if ray_cpus_per_case is None else ray_cpus_per_case,
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


class BisectFormat(str, Enum):
    md = "md"
    json = "json"


@app.command("bisect", help="Find the commit that broke learning, then investigate it.")
def bisect(
    path: Annotated[Path, typer.Argument(help="the repo (its checkout is never touched)")],
    good: Annotated[str, typer.Option("--good", help="a commit that learns")],
    bad: Annotated[str, typer.Option("--bad", help="a later commit that does not")],
    cmd: Annotated[
        str | None,
        typer.Option("--cmd", help="the training command (default: found at the bad commit)"),
    ] = None,
    steps: Annotated[int, typer.Option(help="optimizer steps traced per commit")] = 200,
    timeout: Annotated[float, typer.Option(help="wall-clock limit per run, seconds")] = 120.0,
    fmt: Annotated[BisectFormat, typer.Option("--format", "-f")] = BisectFormat.md,
    output: Annotated[Path | None, typer.Option("--output", "-o")] = None,
    python: Annotated[
        str | None, typer.Option("--python", help="interpreter of the repo's own environment")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr")] = False,
) -> None:
    from torch_investigate.tools.commits import HistoryError, history

    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    try:  # bad input is answered before the investigator (and its imports) load
        walk = history(path, good, bad)
    except HistoryError as e:
        fail(str(e))
    from torch_investigate.agent.bisect.search import BisectError, BisectOptions, bisect_history
    from torch_investigate.agent.render.bisect_md import to_bisect_json, to_bisect_markdown

    options = BisectOptions(cmd=cmd, steps=steps, timeout_s=timeout, python=python)
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
        head = f"bisect: run {next(runs)}: {probe.sha[:10]} {probe.status:<9}"
        typer.echo(f"{head} {probe.subject[:50]!r}: {probe.reason}", err=True)

    return on_probe


@app.command("mcp", help="Serve the investigation tools over MCP on stdio, for other agents.")
def mcp(
    steps: Annotated[int, typer.Option(help="optimizer steps to trace, in every session")] = 200,
    timeout: Annotated[float, typer.Option(help="wall-clock limit per run, seconds")] = 120.0,
    isolation: Annotated[str, typer.Option(help="auto | bwrap | unshare | socket-guard")] = "auto",
) -> None:
    from torch_investigate.agent.core.session import Options
    from torch_investigate.tools.sandbox.isolation import IsolationError, choose

    try:
        from torch_investigate.agent.mcp.server import serve
    except ModuleNotFoundError as e:
        if e.name != "mcp" and not (e.name or "").startswith("mcp."):
            raise
        fail("the MCP server needs the mcp package: pip install 'torch-investigate[mcp]'")
    if steps < 1:
        fail("--steps must be at least 1")
    if timeout <= 0:
        fail("--timeout must be positive")
    try:
        choose(isolation)  # refuse an isolation this machine lacks before a client connects
    except IsolationError as e:
        fail(str(e))
    raise typer.Exit(serve(Options(steps=steps, timeout_s=timeout, isolation=isolation)))
