"""A flag read from a settings file that switches a line on: `if cfg.freeze_trunk:` around
the line, and a settings file the program names (`"train_config.json"` as a string in its
code) that sets `freeze_trunk` true. What the line does is then the file's value: the one
the user changes, so a finding about the line is placed there."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.index import CodeIndex

SETTINGS_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".cfg", ".ini")
MAX_FILES = 200  # settings files looked at per repo
MAX_WALKED = 20_000  # files walked past at most
MAX_BYTES = 200_000  # a settings file larger than this is data, not settings
TRUE = r"(?:true|yes|on|1)"


def flag_setting(index: CodeIndex, file: str, line: int) -> tuple[str, int] | None:
    """(settings file, line) of the true value of the flag whose `if` runs `file:line`,
    innermost `if` first; None when no flag of a file the program names switches it, or
    when several files set it (which one the run read is not known)."""
    unit = index.unit(file)
    if unit is None:
        return None
    node = unit.tree.root_node.descendant_for_point_range((line - 1, 0), (line - 1, 0))
    named = _named_settings(index)
    for key in _flags_around(node):
        pattern = re.compile(
            rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[:=]\s*{TRUE}\s*,?\s*(?:#.*)?$", re.I
        )
        found = [
            (rel, n)
            for rel, lines in named
            for n, text in enumerate(lines, 1)
            if pattern.match(text)
        ]
        if found:
            return found[0] if len({rel for rel, _ in found}) == 1 else None
    return None


def _flags_around(node: Node | None) -> list[str]:
    """The keys of the flags that the `if` statements around node test, innermost first:
    `x.key`, `x["key"]`, `x.get("key")` (the whole condition, or one operand of `and`)."""
    keys: list[str] = []
    child = node
    for anc in sx.ancestors(node) if node is not None else ():
        if anc.type == "if_statement" and child == anc.child_by_field_name("consequence"):
            cond = anc.child_by_field_name("condition")
            keys += [k for k in map(_key, _conjuncts(cond)) if k]
        child = anc
    return keys


def _conjuncts(cond: Node | None) -> list[Node]:
    if cond is None:
        return []
    if cond.type == "parenthesized_expression" and cond.named_children:
        return _conjuncts(cond.named_children[0])
    if cond.type == "boolean_operator" and sx.text(cond.child_by_field_name("operator")) == "and":
        return _conjuncts(cond.child_by_field_name("left")) + _conjuncts(
            cond.child_by_field_name("right")
        )
    return [cond]


def _key(cond: Node) -> str | None:
    if cond.type == "attribute":
        attr = cond.child_by_field_name("attribute")
        return sx.text(attr) if attr is not None else None
    if cond.type == "subscript":
        return sx.string_value(cond.child_by_field_name("subscript"))
    if cond.type == "call" and sx.method_name(cond) == "get":
        return sx.string_value(sx.argument(cond, 0))
    return None


def _named_settings(index: CodeIndex) -> list[tuple[str, list[str]]]:
    """(relative name, lines) of the settings files whose name the program's code spells."""
    sources = "\n".join(
        sx.text(u.tree.root_node) for u in (index.unit(f) for f in index.files) if u
    )
    out = []
    for path in _settings_files(Path(index.root)):
        name = path.name
        if f'"{name}' in sources or f"'{name}" in sources or f"/{name}" in sources:
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            out.append((path.relative_to(index.root).as_posix(), lines))
    return out


def _settings_files(root: Path) -> list[Path]:
    """Settings files under root, hidden folders left out, the walk bounded (a data
    folder of many files is not searched through)."""
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        seen += len(files)
        for name in sorted(files):
            path = Path(folder) / name
            if path.suffix.lower() not in SETTINGS_SUFFIXES:
                continue
            try:
                if path.is_file() and path.stat().st_size <= MAX_BYTES:
                    found.append(path)
            except OSError:
                continue
        if len(found) >= MAX_FILES or seen >= MAX_WALKED:
            break
    return found[:MAX_FILES]
