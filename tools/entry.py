"""Finding the training command: `--cmd` when given, else ranked candidates from the
README's code blocks, `[project.scripts]`, Makefile targets and `train*.py` /
`main.py` / `run*.py` files that have a main guard (and best, build an optimizer).

Arguments are kept as written, including those that make runs long (epochs): bounding
the run is the tracer's job, not ours. A candidate whose script or module does not
exist in the repo is dropped.
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
_OPTIMIZER_CALL = re.compile(
    r"\b(optim\.[A-Z]\w*|SGD|Adam|AdamW|RMSprop|Adagrad|Adadelta|LBFGS|NAdam|RAdam|Adamax)\s*\("
)
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


def _module_file(root: Path, module: str, env: dict[str, str]) -> Path | None:
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
        return _module_file(root, argv[1], env) is not None
    return (root / argv[0]).is_file()


# -- reading a Python file ------------------------------------------------------------------


def _has_main_guard(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            names = [node.test.left, *node.test.comparators]
            texts = {ast.unparse(n).strip("'\"") for n in names}
            if {"__name__", "__main__"} <= texts:
                return True
    return False


def _read_python(path: Path) -> tuple[bool, bool, bool]:
    """(has a main guard, trains: builds an optimizer or calls backward, loops at module level)."""
    try:
        text = path.read_text(errors="replace")
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError):
        return False, False, False
    loops = any(isinstance(node, ast.For | ast.While) for node in tree.body)
    trains = bool(_OPTIMIZER_CALL.search(text)) or ".backward(" in text
    return _has_main_guard(tree), trains, loops


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


def _from_readme(root: Path) -> Iterator[Candidate]:
    for path in sorted(root.iterdir()):
        if not path.is_file() or not path.name.lower().startswith("readme"):
            continue
        for number, line in _readme_lines(path):
            try:
                argv, env, _ = parse_command(line)
            except EntryError:
                continue
            target = argv[1] if argv[0] == "-m" else argv[0]
            if argv[0] == "-m" and _NOT_TRAINING_MODULES.match(target):
                continue
            if "train" in line.lower():
                score, reason = 100, "documented in the README"
            else:
                file = _module_file(root, target, env) if argv[0] == "-m" else root / target
                _, optimizer, _ = _read_python(file) if file else (False, False, False)
                if not optimizer:
                    continue  # a README command that builds no optimizer is not training
                score, reason = (
                    95,
                    "documented in the README; the script trains (optimizer or backward)",
                )
            yield Candidate(
                argv=argv, source=f"{path.name}:{number}", reason=reason, score=score, env=env
            )


def _from_pyproject(root: Path, notes: list[str]) -> Iterator[Candidate]:
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
        env = {"PYTHONPATH": "src"} if _module_file(root / "src", module, {}) else {}
        file = _module_file(root, module, env)
        if file is None:
            notes.append(f"pyproject script {name} = {spec}: module {module} not found in the repo")
            continue
        guard, _, _ = _read_python(file)
        if not guard:
            notes.append(
                f"pyproject script {name} = {spec}: {module} has no main guard, so it cannot be "
                f"run with -m (its entry is the function {func}); give --cmd"
            )
            continue
        is_training = "train" in f"{name} {module}".lower()
        yield Candidate(
            argv=["-m", module],
            source="pyproject [project.scripts]",
            reason=f"script {name} = {spec}; {module} has a main guard",
            score=80 if is_training else 40,
            env=env,
        )


def _makefile_targets(text: str) -> Iterator[tuple[str, list[str]]]:
    target: str | None = None
    recipe: list[str] = []
    for line in text.splitlines():
        if line.startswith("\t"):
            if target is not None:
                recipe.append(line.strip())
            continue
        match = re.match(r"^([A-Za-z0-9_./-]+)\s*:(?!=)", line)
        if match:
            if target is not None:
                yield target, recipe
            target, recipe = match.group(1), []
        elif line.strip() and not line.startswith("#"):
            if target is not None:
                yield target, recipe
            target, recipe = None, []
    if target is not None:
        yield target, recipe


def _from_makefile(root: Path) -> Iterator[Candidate]:
    for name in ("Makefile", "makefile", "GNUmakefile"):
        path = root / name
        if path.is_file():
            break
    else:
        return
    for target, recipe in _makefile_targets(path.read_text(errors="replace")):
        if target in _NOT_TRAINING_TARGETS or target.startswith("."):
            continue
        for line in recipe:
            line = _MAKE_PYTHON_VAR.sub("python", line.lstrip("@-+ "))
            try:
                argv, env, _ = parse_command(line)
            except EntryError:
                continue
            if "$" in " ".join(argv):
                continue  # depends on make variables we do not evaluate
            is_training = target.startswith("train") or "train" in line.lower()
            yield Candidate(
                argv=argv,
                source=f"{path.name}:{target}",
                reason=f"make target {target} runs python",
                score=90 if target.startswith("train") else (75 if is_training else 50),
                env=env,
            )
            break


def _python_files(root: Path) -> Iterator[tuple[Path, bool]]:
    """(file, named like an entry point) for train*/main/run* files at any depth up to
    MAX_DEPTH and any other .py file at the top level."""
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        depth = len(here.relative_to(root).parts)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in _SKIP_DIRS
            and not d.startswith(".")
            and not (here / d / "pyvenv.cfg").exists()
            and depth < MAX_DEPTH
        )
        for name in sorted(files):
            if _SCRIPT_NAME.match(name):
                yield here / name, True
            elif depth == 0 and name.endswith(".py") and name not in ("setup.py", "conftest.py"):
                yield here / name, False


def _invocation(root: Path, path: Path) -> tuple[list[str], dict[str, str]]:
    """`-m pkg.mod` for a file inside a package (its relative imports need it), else the
    script path. `-m` starts above the top package of the file's package chain; when that
    is not the repo root (a src layout), PYTHONPATH points there."""
    if not (path.parent / "__init__.py").is_file():
        return [path.relative_to(root).as_posix()], {}
    top = path.parent
    while top.parent != root and (top.parent / "__init__.py").is_file():
        top = top.parent
    base = top.parent
    module = ".".join(path.relative_to(base).with_suffix("").parts)
    env = {} if base == root else {"PYTHONPATH": base.relative_to(root).as_posix()}
    return ["-m", module], env


def _from_files(root: Path) -> Iterator[Candidate]:
    for path, entry_name in _python_files(root):
        guard, optimizer, loops = _read_python(path)
        if entry_name and guard:
            name = path.name
            base = 75 if name.startswith("train") else (60 if name == "main.py" else 55)
            score = base - (0 if optimizer else 20) - 5 * (len(path.relative_to(root).parts) - 1)
            what = "builds an optimizer" if optimizer else "no optimizer built in this file"
            reason = f"has a main guard; {what}"
        elif optimizer and (guard or loops):
            score = 45  # a script not named like an entry point that trains
            reason = "builds an optimizer and " + (
                "has a main guard" if guard else "trains at top level"
            )
        else:
            continue
        argv, env = _invocation(root, path)
        yield Candidate(
            argv=argv,
            source=path.relative_to(root).as_posix(),
            reason=reason,
            score=score,
            env=env,
        )


def rank_candidates(root: Path, notes: list[str] | None = None) -> list[Candidate]:
    """Every runnable candidate, best first; problems worth telling go to `notes`."""
    root = Path(root)
    notes = [] if notes is None else notes
    found: list[Candidate] = [
        *_from_readme(root),
        *_from_makefile(root),
        *_from_pyproject(root, notes),
        *_from_files(root),
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
    return sorted(best.values(), key=lambda c: (-c.score, c.source))


def find_command(root: Path, cmd: str | None = None) -> CommandInfo | None:
    """The training command: `cmd` if given (EntryError if it is not a Python command),
    else the best-ranked candidate, else None."""
    root = Path(root)
    ranked = rank_candidates(root)
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
    )
