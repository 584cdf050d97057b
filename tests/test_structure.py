"""The code's shape: no import cycles among the project's modules (imports under
`if TYPE_CHECKING:` aside), no module over 500 lines outside the user-repo folders, no
module named for no concept (common, utils, misc) and each one saying what it holds."""

import ast
import re

from import_graph import NOT_OURS, ROOT, TOPS, USER_REPOS, imports, modules

MAX_LINES = 500


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
    mods = modules()
    graph = {name: imports(name, path, mods) for name, path in mods.items()}
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


def _ours() -> dict[str, str]:
    """Our modules (tests included) by path, with their source."""
    found = {}
    for top in (*TOPS, "tests"):
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if not rel.startswith(NOT_OURS):
                found[rel] = path.read_text(encoding="utf-8")
    return found


def test_no_module_is_named_for_no_concept():
    vague = re.compile(r"(^|/)_?(common|utils?|misc)(/|\.py$)")
    assert [rel for rel in _ours() if vague.search(rel)] == []


def test_every_module_says_first_what_it_holds():
    """A docstring whose first line says the one thing the module holds."""
    missing = [rel for rel, source in _ours().items() if not ast.get_docstring(ast.parse(source))]
    assert missing == []
