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
from torch_investigate.tools.command_line import (
    EntryError,
    chain_parts,
    invokes_python,
    parse_command,
    prerequisites,
    shown_commands,
)
from torch_investigate.tools.records import CommandInfo

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
_PREPARATION = 60  # a chain's preparation step: below files reaching training (70+)


class Candidate(BaseModel):
    argv: list[str]  # without the interpreter
    source: str
    reason: str
    score: int
    env: dict[str, str] = Field(default_factory=dict)  # e.g. PYTHONPATH=src for a src layout
    order: int = 0  # position in its source (a README line), for ties
    setup: list[list[str]] = Field(default_factory=list)  # Python run first (make prerequisites)
    then: list[list[str]] = Field(default_factory=list)  # Python its chain runs after it

    def display(self) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env.items())
        line = " ".join(shlex.quote(a) for a in ["python", *self.argv])
        return f"{env + ' ' if env else ''}{line}  ({self.source}: {self.reason})"


class Command(CommandInfo):
    """A CommandInfo with what `--cmd` may add: the user's variables and interpreter."""

    env: dict[str, str] = Field(default_factory=dict)
    interpreter: str | None = None  # an explicit interpreter path from --cmd


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


def _readme_lines(path: Path) -> Iterator[tuple[int, str, list[str], list[str]]]:
    """(line number, command, the commands before it in its chain, the commands on the
    lines before it in its fenced block) of shell lines in fenced blocks (markdown) or,
    for other formats, lines that look like commands; continuation lines are joined."""
    lines = path.read_text(errors="replace").splitlines()
    markdown = path.suffix.lower() in (".md", ".markdown")
    in_fence = False
    pending: tuple[int, str] | None = None
    block: list[str] = []  # the Python commands of the fenced block so far
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if markdown and stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            pending = None
            block = []
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
        earlier = list(block) if markdown else []
        for part, before in chain_parts(text):
            if "python" in part or part.endswith(".py") or ".py " in part:
                yield start, part, before, earlier
                block.append(part)


def _documented(reach: Reach | None, where: str, base: int) -> tuple[int, str]:
    """Score and reason of a documented command (README, Makefile, pyproject)."""
    if reach is not None:
        return base, f"{where}; it reaches {reach.via}"
    return 30, f"{where}, but its code reaches no training step (backward and an update)"


def _from_readme(root: Path, reaching: Reaching) -> Iterator[Candidate]:
    for path in sorted(root.iterdir()):
        if not path.is_file() or not path.name.lower().startswith("readme"):
            continue
        chain: list[_ChainPart] = []  # the commands of one README line
        for part in _readme_candidates(root, reaching, path):
            if chain and part.candidate.order != chain[-1].candidate.order:
                yield from _demote_preparation(chain)
                chain = []
            chain.append(part)
        yield from _demote_preparation(chain)


class _ChainPart(BaseModel):
    candidate: Candidate
    text: str
    before: list[str]  # the commands before it in its chain
    reaches: bool  # its code reaches a training step


def _demote_preparation(chain: list[_ChainPart]) -> Iterator[Candidate]:
    """In a chain (`python x.py --make-data && python x.py --epochs 40`) a command that
    runs before a later one reaching training prepares for it, even when its own file
    reaches training too (one script with a data mode): it ranks below every file that
    reaches training, and the later one (which runs it first) is the training command."""
    for part in chain:
        later = [p for p in chain if p.reaches and part.text in p.before]
        if not (later and part.reaches):
            after = [p.candidate.argv for p in chain if part.text in p.before]
            if part.reaches and after:
                reason = f"{part.candidate.reason}; its chain then runs {shown_commands(after)}"
                yield part.candidate.model_copy(update={"then": after, "reason": reason})
            else:
                yield part.candidate
            continue
        reason = (
            f"{part.candidate.reason}; it runs before {shown_commands([later[-1].candidate.argv])}"
            " in its chain, which it prepares"
        )
        yield part.candidate.model_copy(update={"score": _PREPARATION, "reason": reason})


def _readme_candidates(root: Path, reaching: Reaching, path: Path) -> Iterator[_ChainPart]:
    for number, line, before, earlier in _readme_lines(path):
        if not invokes_python(line):
            continue  # `train.py   the training loop` in a file listing is not a command
        try:
            argv, env, _ = parse_command(line)
        except EntryError:
            continue
        setup = _block_preparation(root, reaching, earlier) + prerequisites(before)
        target = argv[1] if argv[0] == "-m" else argv[0]
        if argv[0] == "-m" and _NOT_TRAINING_MODULES.match(target):
            continue
        reach = reaching.of(_target_file(root, argv, env))
        score, reason = _documented(reach, "documented in the README", 100)
        if setup:
            before_it = shown_commands(setup)
            reason += f"; the commands before it (its line, its code block) run first: {before_it}"
        candidate = Candidate(
            argv=argv, source=f"{path.name}:{number}", reason=reason, score=score, env=env,
            order=number, setup=setup,
        )  # fmt: skip
        yield _ChainPart(candidate=candidate, text=line, before=before, reaches=reach is not None)


def _block_preparation(root: Path, reaching: Reaching, earlier: list[str]) -> list[list[str]]:
    """The Python commands on the lines before a command in its fenced block whose code
    reaches no training step (`python make_data.py` above `python train.py`): they make
    what it reads. Another training command, or a tool run as a module (pip, pytest), is
    not one."""
    setup = []
    for argv in prerequisites(earlier):
        if not argv or argv[0] == "-m" and (len(argv) < 2 or _NOT_TRAINING_MODULES.match(argv[1])):
            continue
        if argv[0] != "-m" and not argv[0].endswith(".py"):
            continue
        if reaching.of(_target_file(root, argv, {})) is None:
            setup.append(argv)
    return setup


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
                reason += "; its prerequisites run first: " + shown_commands(setup)
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
        then = [argv for argv in candidate.then if _target_exists(root, argv, candidate.env)]
        if then != candidate.then:
            candidate = candidate.model_copy(update={"then": then})
        key = tuple(candidate.argv)
        if key not in best or candidate.score > best[key].score:
            best[key] = candidate
    # ties: the earlier README line (as a number, not as text), then the source
    return sorted(
        best.values(), key=lambda c: (-c.score, c.source.split(":")[0], c.order, c.source)
    )


def _training_part(
    root: Path, cmd: str, reaching: Reaching
) -> tuple[str, list[list[str]], list[list[str]]]:
    """The last command of a chain (`python prep.py && python train.py`) that reaches a
    training step (else its last Python command), the Python commands before it, and
    those the chain runs after it (`&& python evaluate.py`)."""
    parts = list(chain_parts(cmd))
    if len(parts) == 1:
        return cmd, [], []
    python = [(line, before) for line, before in parts if invokes_python(line)]
    if not python:
        return cmd, [], []

    def chosen(line: str, before: list[str]) -> tuple[str, list[list[str]], list[list[str]]]:
        after = prerequisites([later for later, ahead in python if line in ahead])
        return line, prerequisites(before), after

    for line, before in reversed(python):  # the last: those before it prepare for it
        try:
            argv, env, _ = parse_command(line)
        except EntryError:
            continue
        if reaching.of(_target_file(root, argv, env)) is not None:
            return chosen(line, before)
    return chosen(*python[-1])


def find_command(
    root: Path, cmd: str | None = None, index: CodeIndex | None = None
) -> CommandInfo | None:
    """The training command: `cmd` if given (EntryError if it is not a Python command),
    else the best-ranked candidate, else None."""
    root = Path(root)
    index = index if index is not None else CodeIndex.build(root)
    ranked = rank_candidates(root, index=index)
    if cmd is not None:
        line, setup, then = _training_part(root, cmd, Reaching(root, index))
        argv, env, interpreter = parse_command(line)
        if argv[0] != "-m" and not (root / argv[0]).is_file():
            raise EntryError(f"the command runs {argv[0]}, which is not in {root}")
        return Command(
            argv=argv,
            source="--cmd",
            reason="given by the user"
            + ("; the commands before it run first" if setup else "")
            + (f"; its chain then runs {shown_commands(then)}" if then else ""),
            candidates=[c.display() for c in ranked if c.argv != argv],
            env=env,
            interpreter=interpreter,
            setup=setup,
            then=then,
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
        then=top.then,
    )
