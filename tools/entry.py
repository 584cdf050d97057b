"""Finding the training command: `--cmd` when given, else ranked candidates from the
README's code blocks, Makefile targets, `[project.scripts]` and every file whose top
level (a script body, a main guard, a package's `__main__`) reaches a training step
through the repo's call graph (tools/code/entries.py), whatever the file is named.

A documented command ranks first when its target reaches training; one that does not
(an evaluation script that needs downloaded weights) ranks below every file that does.
Names (`train*.py`) only break ties. Arguments are kept as written, including those
that make runs long (epochs): bounding the run is the tracer's job, not ours. A
candidate whose script or module does not exist in the repo is dropped.
"""

from __future__ import annotations

import ast
import os
import re
import shlex

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, Field

from torch_investigate.tools import makefile
from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.entries import Reach, entries
from torch_investigate.tools.records import CommandInfo

_PYTHON = re.compile(r"^(?:.*/)?python(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
_ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"))
# Interpreter options that take a value as the next token.
_OPTIONS_WITH_VALUE = {"-W", "-X", "--check-hash-based-pycs"}
_NOT_TRAINING_MODULES = re.compile(
    r"^(pip|venv|virtualenv|pytest|unittest|doctest|http\.server|build|twine|ensurepip|"
    r"black|ruff|flake8|mypy|isort|jupyter|notebook|tensorboard|ipykernel|nbconvert|setuptools)\b"
)
_SKIP_DIRS = {
    ".git",
    "__pycache__",
    "node_modules",
    "tests",
    "test",
    "docs",
    ".tox",
    "build",
    "dist",
}
_SCRIPT_NAME = re.compile(r"^(train.*|main|run.*)\.py$")
_MAKE_PYTHON_VAR = re.compile(r"\$[({](PYTHON\w*|PY)[)}]")
_NOT_TRAINING_TARGETS = {"install", "test", "tests", "lint", "format", "clean", "docs", "setup"}
MAX_DEPTH = 3


class EntryError(ValueError):
    """The given command cannot be run as a Python training command; one line."""


class Candidate(BaseModel):
    argv: list[str]  # without the interpreter
    source: str
    reason: str
    score: int
    env: dict[str, str] = Field(default_factory=dict)  # e.g. PYTHONPATH=src for a src layout
    order: int = 0  # position in its source (a README line), for ties
    setup: list[list[str]] = Field(default_factory=list)  # Python run first (make prerequisites)

    def display(self) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env.items())
        line = " ".join(shlex.quote(a) for a in ["python", *self.argv])
        return f"{env + ' ' if env else ''}{line}  ({self.source}: {self.reason})"


class Command(CommandInfo):
    """A CommandInfo with what `--cmd` may add: the user's variables and interpreter."""

    env: dict[str, str] = Field(default_factory=dict)
    interpreter: str | None = None  # an explicit interpreter path from --cmd


# -- parsing one command line ----------------------------------------------------------


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


# -- does the target exist? ----------------------------------------------------------------


def module_file(root: Path, module: str, env: dict[str, str]) -> Path | None:
    bases = [root] + [root / p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    parts = module.split(".")
    for base in bases:
        for candidate in (
            base.joinpath(*parts).with_suffix(".py"),
            base.joinpath(*parts) / "__main__.py",
        ):
            if candidate.is_file():
                return candidate
    return None


def _target_exists(root: Path, argv: list[str], env: dict[str, str]) -> bool:
    if argv[0] == "-m":
        return module_file(root, argv[1], env) is not None
    return (root / argv[0]).is_file()


# -- what reaches training ---------------------------------------------------------------


def _has_main_guard(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            names = [node.test.left, *node.test.comparators]
            texts = {ast.unparse(n).strip("'\"") for n in names}
            if {"__name__", "__main__"} <= texts:
                return True
    return False


def _main_guard(path: Path) -> bool:
    try:
        return _has_main_guard(ast.parse(path.read_text(errors="replace")))
    except (OSError, SyntaxError, ValueError):
        return False


class Reaching:
    """Which repo files start training (their top level reaches a training step)."""

    def __init__(self, root: Path, index: CodeIndex) -> None:
        self.root = root
        self.reach: dict[str, Reach] = entries(index)

    def of(self, file: Path | None) -> Reach | None:
        if file is None:
            return None
        try:
            rel = file.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None
        return self.reach.get(rel)


def _target_file(root: Path, argv: list[str], env: dict[str, str]) -> Path | None:
    return module_file(root, argv[1], env) if argv[0] == "-m" else root / argv[0]


# -- sources ------------------------------------------------------------------------------


def _readme_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, command line) of shell lines in fenced blocks (markdown) or, for
    other formats, lines that look like commands; continuation lines are joined."""
    lines = path.read_text(errors="replace").splitlines()
    markdown = path.suffix.lower() in (".md", ".markdown")
    in_fence = False
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if markdown and stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            pending = None
            continue
        if markdown and not in_fence:
            continue
        text = re.sub(r"^(\$|>>>|>|!|%)\s*", "", stripped)
        if pending is not None:
            start, text = pending[0], pending[1] + " " + text
            pending = None
        else:
            start = number
        if text.endswith("\\"):
            pending = (start, text[:-1].rstrip())
            continue
        for part in re.split(r"\s*(?:&&|;|\|\|)\s*", text):
            if "python" in part or part.endswith(".py") or ".py " in part:
                yield start, part


def _invokes_python(line: str) -> bool:
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


def _documented(reach: Reach | None, where: str, base: int) -> tuple[int, str]:
    """Score and reason of a documented command (README, Makefile, pyproject)."""
    if reach is not None:
        return base, f"{where}; it reaches {reach.via}"
    return 30, f"{where}, but its code reaches no training step (backward and an update)"


def _from_readme(root: Path, reaching: Reaching) -> Iterator[Candidate]:
    for path in sorted(root.iterdir()):
        if not path.is_file() or not path.name.lower().startswith("readme"):
            continue
        for number, line in _readme_lines(path):
            if not _invokes_python(line):
                continue  # `train.py   the training loop` in a file listing is not a command
            try:
                argv, env, _ = parse_command(line)
            except EntryError:
                continue
            target = argv[1] if argv[0] == "-m" else argv[0]
            if argv[0] == "-m" and _NOT_TRAINING_MODULES.match(target):
                continue
            reach = reaching.of(_target_file(root, argv, env))
            score, reason = _documented(reach, "documented in the README", 100)
            yield Candidate(
                argv=argv, source=f"{path.name}:{number}", reason=reason, score=score, env=env,
                order=number,
            )  # fmt: skip


def _from_pyproject(root: Path, reaching: Reaching, notes: list[str]) -> Iterator[Candidate]:
    path = root / "pyproject.toml"
    try:
        data = tomllib.loads(path.read_text(errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return
    scripts = dict(data.get("project", {}).get("scripts", {}))
    scripts.update(data.get("tool", {}).get("poetry", {}).get("scripts", {}) or {})
    for name, spec in scripts.items():
        if not isinstance(spec, str) or ":" not in spec:
            continue
        module, func = spec.split(":", 1)
        env = {"PYTHONPATH": "src"} if module_file(root / "src", module, {}) else {}
        file = module_file(root, module, env)
        if file is None:
            notes.append(f"pyproject script {name} = {spec}: module {module} not found in the repo")
            continue
        if not _main_guard(file):
            notes.append(
                f"pyproject script {name} = {spec}: {module} has no main guard, so it cannot be "
                f"run with -m (its entry is the function {func}); give --cmd"
            )
            continue
        score, reason = _documented(reaching.of(file), f"script {name} = {spec}", 85)
        yield Candidate(
            argv=["-m", module], source="pyproject [project.scripts]", reason=reason,
            score=score, env=env,
        )  # fmt: skip


def _python_lines(root: Path, lines: list[str]) -> list[list[str]]:
    """The lines that run a repo script with Python, as argv (without the interpreter)."""
    out = []
    for line in lines:
        line = line.lstrip("@-+ ")
        try:
            argv, env, _ = parse_command(line)
        except EntryError:
            continue
        if "$" not in " ".join(argv) and _target_exists(root, argv, env):
            out.append(argv)
    return out


def _from_makefile(root: Path, reaching: Reaching) -> Iterator[Candidate]:
    for name in ("Makefile", "makefile", "GNUmakefile"):
        path = root / name
        if path.is_file():
            break
    else:
        return
    mk = makefile.parse(path.read_text(errors="replace"))
    mk.variables.setdefault("PYTHON", "python")
    for number, target in enumerate(mk.order):
        if target in _NOT_TRAINING_TARGETS or target.startswith(".") or "/" in target:
            continue
        for line in mk.rules[target].recipe:
            line = _MAKE_PYTHON_VAR.sub("python", line.lstrip("@-+ "))
            try:
                argv, env, _ = parse_command(line)
            except EntryError:
                continue
            if "$" in " ".join(argv):
                continue  # depends on make variables we do not evaluate
            reach = reaching.of(_target_file(root, argv, env))
            score, reason = _documented(reach, f"make target {target}", 90)
            setup = _python_lines(root, mk.before(target))
            if setup:
                reason += "; its prerequisites run first: " + "; ".join(" ".join(a) for a in setup)
            yield Candidate(
                argv=argv, source=f"{path.name}:{target}", reason=reason, score=score, env=env,
                order=number, setup=setup,
            )  # fmt: skip
            break


def _invocation(root: Path, path: Path) -> tuple[list[str], dict[str, str]]:
    """`-m pkg.mod` for a file inside a package (its relative imports need it; a package's
    `__main__.py` is `-m pkg`), else the script path. `-m` starts above the top package of
    the file's package chain; when that is not the repo root (a src layout), PYTHONPATH
    points there."""
    if not (path.parent / "__init__.py").is_file():
        return [path.relative_to(root).as_posix()], {}
    top = path.parent
    while top.parent != root and (top.parent / "__init__.py").is_file():
        top = top.parent
    base = top.parent
    parts = path.relative_to(base).with_suffix("").parts
    if parts[-1] == "__main__":
        parts = parts[:-1]
    env = {} if base == root else {"PYTHONPATH": base.relative_to(root).as_posix()}
    return ["-m", ".".join(parts)], env


def _skipped(rel: str) -> bool:
    parts = rel.split("/")
    return any(p in _SKIP_DIRS or p.startswith(".") for p in parts[:-1]) or parts[-1] in (
        "setup.py",
        "conftest.py",
    )


def _from_files(root: Path, reaching: Reaching) -> Iterator[Candidate]:
    """Every file whose top level reaches a training step; a main guard, a shallow place
    and an entry-point name (train*, main, run*) only order them."""
    for rel, reach in sorted(reaching.reach.items()):
        if _skipped(rel):
            continue
        path = root / rel
        guard = _main_guard(path)
        depth = len(Path(rel).parts) - 1
        score = 70 + (5 if guard else 0) + (3 if _SCRIPT_NAME.match(path.name) else 0) - 2 * depth
        how = "its main guard" if guard else "its top level"
        argv, env = _invocation(root, path)
        yield Candidate(
            argv=argv, source=rel, reason=f"{how} reaches {reach.via}", score=score, env=env
        )


def rank_candidates(
    root: Path, notes: list[str] | None = None, index: CodeIndex | None = None
) -> list[Candidate]:
    """Every runnable candidate, best first; problems worth telling go to `notes`."""
    root = Path(root)
    notes = [] if notes is None else notes
    reaching = Reaching(root, index if index is not None else CodeIndex.build(root))
    found: list[Candidate] = [
        *_from_readme(root, reaching),
        *_from_makefile(root, reaching),
        *_from_pyproject(root, reaching, notes),
        *_from_files(root, reaching),
    ]
    best: dict[tuple[str, ...], Candidate] = {}
    for candidate in found:
        if not _target_exists(root, candidate.argv, candidate.env):
            notes.append(
                f"{candidate.source}: {' '.join(candidate.argv)} points at nothing in the repo"
            )
            continue
        key = tuple(candidate.argv)
        if key not in best or candidate.score > best[key].score:
            best[key] = candidate
    # ties: the earlier README line (as a number, not as text), then the source
    return sorted(
        best.values(), key=lambda c: (-c.score, c.source.split(":")[0], c.order, c.source)
    )


def find_command(
    root: Path, cmd: str | None = None, index: CodeIndex | None = None
) -> CommandInfo | None:
    """The training command: `cmd` if given (EntryError if it is not a Python command),
    else the best-ranked candidate, else None."""
    root = Path(root)
    ranked = rank_candidates(root, index=index)
    if cmd is not None:
        argv, env, interpreter = parse_command(cmd)
        if argv[0] != "-m" and not (root / argv[0]).is_file():
            raise EntryError(f"the command runs {argv[0]}, which is not in {root}")
        return Command(
            argv=argv,
            source="--cmd",
            reason="given by the user",
            candidates=[c.display() for c in ranked if c.argv != argv],
            env=env,
            interpreter=interpreter,
        )
    if not ranked:
        return None
    top, others = ranked[0], ranked[1:]
    return Command(
        argv=top.argv,
        source=top.source,
        reason=top.reason,
        candidates=[c.display() for c in others],
        env=top.env,
        setup=top.setup,
    )
