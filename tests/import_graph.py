"""The project's modules and the imports between them, read from the source with `ast`
(shared by tests/test_structure.py and tests/test_architecture.py)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("agent", "tools", "evals", "prompts", "torch_investigate")
USER_REPOS = ("evals/suite", "evals/repos", "evals/test", "tests/fixtures", "examples")
# folders of user code (the suites' repos, fixtures, examples), not ours
NOT_OURS = (*USER_REPOS, "evals/rounds", "evals/practice", "evals/real/standins", "evals/real/data")


def modules() -> dict[str, Path]:
    """Every module of the project by its dotted name under torch_investigate (the
    suites' repos and the fixtures aside)."""
    mods = {}
    for top in TOPS:
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(USER_REPOS):
                continue
            name = rel[:-3].replace("/", ".")
            name = name.removesuffix(".__init__")
            if top != "torch_investigate":
                name = f"torch_investigate.{name}"
            mods[name] = path
    return mods


def imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """Modules `name` imports at run time: `from pkg import sub` is an edge to pkg.sub,
    `from pkg import Name` an edge to pkg's __init__."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            test = node.test
            if (
                getattr(test, "id", None) == "TYPE_CHECKING"
                or getattr(test, "attr", None) == "TYPE_CHECKING"
            ):
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            edges.update(a.name for a in node.names if a.name in mods)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in mods:
                    edges.add(f"{module}.{alias.name}")
                elif module in mods:
                    edges.add(module)

    Visitor().visit(ast.parse(path.read_text(encoding="utf-8")))
    edges.discard(name)
    return edges
