"""The code's shape: no import cycles among the project's modules (imports under
`if TYPE_CHECKING:` aside) and no module over 500 lines outside the user-repo folders."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("agent", "tools", "evals", "prompts", "torch_investigate")
USER_REPOS = ("evals/suite", "evals/repos", "evals/test", "tests/fixtures", "examples")
MAX_LINES = 500


def _modules() -> dict[str, Path]:
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


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
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


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_over_500_lines():
    long = {}
    for top in (*TOPS, "tests"):
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            n = len(path.read_text(encoding="utf-8").splitlines())
            if not rel.startswith(USER_REPOS) and n > MAX_LINES:
                long[rel] = n
    assert long == {}
