"""The `investigate` command line's shared parts: the typer app, exit codes, the option
types several commands share, and the one-line failure. Commands live in cli_run.py and
cli_subcommands.py; cli.py is the entry point that loads them."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
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


def _llm_options(
    model, base_url, max_steps, max_tokens, max_cost, price, max_failures, timeout, mode="walk"
):
    from torch_investigate.agent.llm.options import LLMOptions

    return LLMOptions(
        model=model, base_url=base_url, max_steps=max_steps, max_tokens=max_tokens,
        max_cost=max_cost, price_per_1k=price, max_failures=max_failures, llm_timeout=timeout,
        mode=mode,
    )  # fmt: skip


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
