"""The `investigate` command line's shared parts: the typer app, exit codes, the option
types several commands share, and the one-line failure. Commands live in run.py and
subcommands.py; main.py is the entry point that loads them. Help texts name defaults by
placeholder (`{steps}`): help.py fills them from the settings that apply them."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from torch_investigate.agent.cli.help import Command, Group

app = typer.Typer(
    cls=Group,
    add_completion=False,
    help=(
        "Find why a PyTorch model runs but does not learn.\n\n"
        "investigate PATH [--cmd 'python train.py ...'] [--format md|json|sarif|html] [-o FILE] "
        "[--steps N] [--timeout S] [--static-only] [--python PATH] [--model NAME "
        "[--mode review|walk]] [--fail-on confirmed] [--quiet]\n\n"
        "`investigate run --help` describes every option of an investigation. Exit codes: 0 "
        "finished, 1 a confirmed defect with --fail-on confirmed, 2 bad input, 3 inconclusive "
        "(the training path could not run), 4 internal error."
    ),
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from torch_investigate import __version__

        typer.echo(f"investigate (torch-investigate) {__version__}")
        raise typer.Exit(0)


@app.callback()
def _top(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="print the version"),
    ] = False,
) -> None:
    """The top-level options (the subcommands have their own)."""


SUBCOMMANDS = {"run", "fix", "schema", "chat", "bench", "seed", "replay", "bisect", "mcp"}

USAGE = """\
usage: investigate PATH [--cmd "python train.py ..."] [--format md|json|sarif|html] [-o FILE]
       investigate COMMAND ...   (schema, chat, bench, seed, replay, bisect, mcp)
`investigate --help` lists the commands, `investigate run --help` every option."""


def command(name: str, **kwargs):
    """`app.command` with the help as help.py draws it."""
    return app.command(name, cls=Command, **kwargs)


EXIT_OK, EXIT_CONFIRMED, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE = 0, 1, 2, 3


ENVIRONMENT_FAILURES = {
    "timeout",
    "out_of_memory",
    "network_blocked",
    "missing_data",
    "missing_module",
    "gpu_required",
    "syntax_error",
    "bad_arguments",
    "interpreter",
    "output_limit",
    "killed",
}


class Format(str, Enum):
    md = "md"
    json = "json"
    sarif = "sarif"
    html = "html"


class Mode(str, Enum):
    review = "review"
    walk = "walk"


class FailOn(str, Enum):
    never = "never"
    confirmed = "confirmed"


ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        metavar="NAME",
        help="an LLM drives the investigation (any OpenAI-compatible endpoint: "
        "OPENAI_API_KEY, OPENAI_BASE_URL)",
    ),
]


BaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        metavar="URL",
        help="the endpoint, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL)",
    ),
]


MaxStepsOpt = Annotated[
    int | None,
    typer.Option("--max-steps", metavar="N", help="at most N model requests (default {max_steps})"),
]


MaxTokensOpt = Annotated[
    int | None,
    typer.Option(
        "--max-tokens",
        metavar="N",
        help="at most N prompt+completion tokens (default {max_tokens})",
    ),
]


MaxCostOpt = Annotated[
    float | None,
    typer.Option(
        "--max-cost",
        metavar="USD",
        help="stop at this cost, when the model's price is known (default {max_cost})",
    ),
]


PriceOpt = Annotated[
    str | None,
    typer.Option(
        "--price-per-1k",
        metavar="IN,OUT",
        help="USD per 1k prompt and completion tokens (default: the built-in table)",
    ),
]


MaxFailuresOpt = Annotated[
    int | None,
    typer.Option(
        "--max-failures",
        metavar="N",
        help="end after N refused or malformed calls in a row (default {max_failures})",
    ),
]


LLMTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--llm-timeout", metavar="S", help="seconds per model request (default {llm_timeout})"
    ),
]


# The options of a run of the training path, shared by run, chat, bisect and mcp.
StepsOpt = Annotated[
    int | None,
    typer.Option("--steps", metavar="N", help="optimizer steps to trace per run (default {steps})"),
]


TimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--timeout",
        metavar="S",
        help="wall-clock limit per run of the training path, seconds (default {timeout})",
    ),
]


IsolationOpt = Annotated[
    str | None,
    typer.Option(
        "--isolation",
        metavar="KIND",
        help="auto | bwrap | unshare | socket-guard (default {isolation})",
    ),
]


ModeOpt = Annotated[
    Mode | None,
    typer.Option(
        "--mode",
        help="with --model: review (the planner walks, the model works on its weak points) "
        "or walk (the model walks every stage) (default {mode})",
    ),
]


QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr")]


def given(**values):
    """The options given on the command line: the settings fill in the rest."""
    return {name: value for name, value in values.items() if value is not None}


def check_run_limits(steps: int | None, timeout: float | None) -> None:
    if steps is not None and steps < 1:
        fail("--steps must be at least 1")
    if timeout is not None and timeout <= 0:
        fail("--timeout must be positive")


def _llm_options(
    model, base_url, max_steps, max_tokens, max_cost, price, max_failures, timeout, mode="walk"
):
    """LLMOptions from the flags given; `mode` None is the options' own default."""
    from torch_investigate.agent.llm.options import LLMOptions

    return LLMOptions(**given(
        model=model, base_url=base_url, max_steps=max_steps, max_tokens=max_tokens,
        max_cost=max_cost, price_per_1k=price, max_failures=max_failures, llm_timeout=timeout,
        mode=mode,
    ))  # fmt: skip


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    typer.echo(f"investigate: error: {message}", err=True)
    raise typer.Exit(code)


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror}")
