"""One shell line as Python commands: `python train.py --x 1` and its spellings
(`python3 -m pkg.train`, `PYTHONPATH=. python ...`, `uv run python ...`, `./train.py`),
and a chain (`python prep.py && python train.py`) as the commands that run first and
the one that follows them."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

_PYTHON = re.compile(r"^(?:.*/)?python(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
_ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"))
# Interpreter options that take a value as the next token.
_OPTIONS_WITH_VALUE = {"-W", "-X", "--check-hash-based-pycs"}


class EntryError(ValueError):
    """The given command cannot be run as a Python training command; one line."""


def parse_command(cmd: str) -> tuple[list[str], dict[str, str], str | None]:
    """(argv without the interpreter, env prefix, interpreter if a path was given).

    Accepts `python train.py --x 1`, `python3 -m pkg.train`, `/venv/bin/python run.py`,
    `PYTHONPATH=. python train.py`, `uv run python train.py`, `./train.py`.
    """
    try:
        tokens = shlex.split(cmd, comments=True)
    except ValueError as e:
        raise EntryError(f"cannot parse the command {cmd!r}: {e}") from e
    env: dict[str, str] = {}
    if tokens and tokens[0] == "env":
        tokens = tokens[1:]
    while tokens and _ENV_ASSIGN.match(tokens[0]):
        name, value = tokens.pop(0).split("=", 1)
        env[name] = value
    for runner in _RUNNERS:
        if tuple(tokens[:2]) == runner:
            tokens = tokens[2:]
    if not tokens:
        raise EntryError(f"the command {cmd!r} runs nothing")
    first = tokens[0]
    if first.endswith(".py"):
        return tokens, env, None  # an executable script with a python shebang
    if not _PYTHON.match(first):
        raise EntryError(
            f"the command {cmd!r} does not run Python (it starts with {first!r}); "
            "give it as `python script.py ...` or `python -m package.module ...`"
        )
    interpreter = first if "/" in first else None
    rest = tokens[1:]
    while rest and rest[0].startswith("-") and rest[0] != "-m":
        option = rest.pop(0)
        if option == "-c":
            raise EntryError(
                f"the command {cmd!r} runs inline code (-c); give a script or a module"
            )
        if option in _OPTIONS_WITH_VALUE and rest:
            rest.pop(0)
    if not rest:
        raise EntryError(f"the command {cmd!r} starts an interactive interpreter, not a script")
    if rest[0] == "-m":
        if len(rest) < 2:
            raise EntryError(f"the command {cmd!r} has -m without a module")
        return ["-m", *rest[1:]], env, interpreter
    return rest, env, interpreter


def chain_parts(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each command of a shell line with the commands that run before it in the same
    chain (`a && b`, `a; b`): those make what it reads. After `||` a new chain starts
    (its command runs instead of the earlier one, not after it)."""
    before: list[str] = []
    for part, joint in re.findall(r"(.*?)\s*(&&|;|\|\||$)\s*", text):
        if part:
            yield part, list(before)
            before.append(part)
        if joint == "||":
            before = []
        if not joint:
            break


def invokes_python(line: str) -> bool:
    """A README line that runs Python: an interpreter (or a runner such as `uv run`) or an
    executable script path (`./train.py`), after any VAR=value prefix."""
    words = [w for w in line.split() if not _ENV_ASSIGN.match(w) and w != "env"]
    if not words:
        return False
    first = words[0]
    return (
        bool(_PYTHON.match(first))
        or first.startswith("./")
        or any(tuple(words[:2]) == runner for runner in _RUNNERS)
    )


def prerequisites(before: list[str]) -> list[list[str]]:
    """The Python commands among those that run before a command in its chain (a
    `mkdir` or `cd` is not run: the copy already has its folders, and the command's
    paths are the repo's)."""
    setup = []
    for line in before:
        if not invokes_python(line):
            continue
        try:
            setup.append(parse_command(line)[0])
        except EntryError:
            continue
    return setup


def shown_commands(setup: list[list[str]]) -> str:
    return "; ".join(" ".join(["python", *argv]) for argv in setup)
