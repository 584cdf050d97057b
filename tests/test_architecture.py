"""ARCHITECTURE.md stays true: every path it names exists, every module belongs to one
layer of its table, and no module imports a layer its row does not list."""

import re
from functools import cache

import pytest
from import_graph import NOT_OURS, ROOT, imports, modules

DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
_PATH = re.compile(r"`([\w.-]+/[\w./-]*)`")  # a code span naming a file or a folder
_ROW = re.compile(r"^\| `([\w./-]+)` \|[^|]*\|([^|]*)\|$", re.M)


def _layers() -> dict[str, list[str]]:
    """Layer path -> the paths its row may import."""
    return {layer: _PATH.findall(allowed) for layer, allowed in _ROW.findall(DOC)}


def _layer_of(rel: str, layers: dict[str, list[str]]) -> str | None:
    """The longest layer path that contains the module at `rel`."""
    inside = [
        layer for layer in layers if rel == layer or layer.endswith("/") and rel.startswith(layer)
    ]
    return max(inside, key=len, default=None)


def _violations(edges: list[tuple[str, str]], layers: dict[str, list[str]]) -> list[str]:
    """`a -> b` for each import of b by a that a's layer may not make."""
    out = []
    for a, b in edges:
        own, other = _layer_of(a, layers), _layer_of(b, layers)
        if own is None or other == own:
            continue
        allowed = layers[own]
        if not any(b == p or p.endswith("/") and b.startswith(p) for p in allowed):
            out.append(f"{a} -> {b}")
    return out


@cache
def _edges() -> list[tuple[str, str]]:
    mods = modules()
    rel = {name: path.relative_to(ROOT).as_posix() for name, path in mods.items()}
    return [
        (rel[name], rel[other])
        for name, path in mods.items()
        if not rel[name].startswith(NOT_OURS)
        for other in sorted(imports(name, path, mods))
    ]


def test_every_path_it_names_exists():
    named = set(_PATH.findall(DOC))
    assert len(named) > 40
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_the_table_names_the_layers_it_promises():
    layers = _layers()
    for layer in ("tools/trace/", "tools/", "agent/core/", "agent/checks/", "agent/render/"):
        assert layer in layers
    assert layers["tools/trace/"] == [] and layers["tools/"] == ["tools/"]
    assert not any(p.startswith("agent/render") for p in layers["agent/core/"])


def test_every_module_belongs_to_a_layer():
    layers = _layers()
    unplaced = {a for a, _ in _edges() if _layer_of(a, layers) is None}
    mods = [p.relative_to(ROOT).as_posix() for p in modules().values()]
    unplaced |= {m for m in mods if not m.startswith(NOT_OURS) and _layer_of(m, layers) is None}
    assert sorted(unplaced) == []


def test_no_layer_imports_what_its_row_does_not_list():
    assert _violations(_edges(), _layers()) == []


@pytest.mark.parametrize(
    ("edge", "refused"),
    [
        (("tools/records.py", "agent/core/session.py"), True),
        (("agent/core/session.py", "agent/render/markdown.py"), True),
        (("agent/checks/loss.py", "agent/core/session.py"), True),
        (("tools/trace/recorder.py", "tools/records.py"), True),
        (("agent/checks/loss.py", "agent/core/facts.py"), False),
        (("agent/render/html.py", "agent/core/answer.py"), False),
        (("tools/sandbox/sandbox.py", "tools/trace/config.py"), False),
    ],
)
def test_the_rules_refuse_an_import_across_them(edge, refused):
    assert bool(_violations([edge], _layers())) == refused
