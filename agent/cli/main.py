"""The `investigate` command line.

    investigate PATH [options]      walk the protocol on a repo and print the report
    investigate fix PATH [--apply]  ... then a verified patch for each confirmed defect
    investigate schema              the report's JSON schema
    investigate chat PATH           an interactive session
    investigate bench [SUITE]       the benchmark (--ray [ADDRESS]: on a Ray cluster)
    investigate seed PATH --category ID --out DIR
    investigate replay FILE         re-render a saved trajectory
    investigate bisect PATH --good REV --bad REV   the commit that broke learning, and why
    investigate mcp                 serve the tools over MCP (stdio) for other agents

Exit codes: 0 the investigation finished; 1 with --fail-on confirmed when a confirmed
defect exists; 2 bad input; 3 inconclusive (the training path could not run).
"""

from __future__ import annotations

import os
import sys

import typer

from torch_investigate.agent.cli import fix as cli_fix  # noqa: F401 (it registers the command)
from torch_investigate.agent.cli import run as cli_run  # noqa: F401 (it registers the command)
from torch_investigate.agent.cli import subcommands as cli_subcommands
from torch_investigate.agent.cli.app import EXIT_BAD_INPUT, SUBCOMMANDS, USAGE, app
from torch_investigate.agent.cli.interrupt import Interrupted, install


def main() -> None:
    if not sys.argv[1:]:  # a bad input like any other: usage on stderr, exit 2
        typer.echo(USAGE, err=True)
        sys.exit(EXIT_BAD_INPUT)
    argv = cli_subcommands.bare_ray(sys.argv[1:])
    if argv and argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version"):
        argv = ["run", *argv]
    install(sigint=argv[:1] != ["chat"])  # the chat reads Ctrl-C itself (it ends a turn)
    try:
        code = app(args=argv, prog_name="investigate", standalone_mode=False)
    except KeyboardInterrupt:
        typer.echo("investigate: interrupted", err=True)
        sys.exit(130)
    except Interrupted as e:
        typer.echo(f"investigate: {e.message}", err=True)
        # Everything of ours is removed by now; the interpreter's own teardown (seconds with
        # torch loaded on a busy machine) is not worth waiting for.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(e.code)
    except Exception as e:  # noqa: BLE001 - never a traceback for a user; TI_DEBUG=1 shows it
        if _usage_error(e):
            sub = argv[0] if argv and argv[0] in SUBCOMMANDS else ""
            hint = f"investigate {sub} --help" if sub and sub != "run" else "investigate --help"
            message = " ".join(e.format_message().split())  # type: ignore[attr-defined]
            typer.echo(f"investigate: error: {message} (see {hint})", err=True)
            sys.exit(EXIT_BAD_INPUT)
        if os.environ.get("TI_DEBUG"):
            raise
        typer.echo(
            f"investigate: internal error: {type(e).__name__}: {e} (TI_DEBUG=1 shows the traceback)",
            err=True,
        )
        sys.exit(4)
    sys.exit(code if isinstance(code, int) else 0)


def _usage_error(e: Exception) -> bool:
    """The command-line parser's own errors (a bad option value, a missing argument): they
    carry a message and an exit code; the parser lives inside typer, so no import names it."""
    return hasattr(e, "format_message") and getattr(e, "exit_code", None) == EXIT_BAD_INPUT


if __name__ == "__main__":
    main()
