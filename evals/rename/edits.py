"""Byte-span edits on a file, and the ones that drop prose from Python: comments and
docstrings go, every line stays where it was (a dropped line becomes blank; a body that
was only a docstring becomes `pass`), so line numbers still point at the same code."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new: str


class EditConflict(ValueError):
    """Two edits of one span disagree: a bug of the renamer, never silently resolved."""


def apply(source: bytes, edits: list[Edit]) -> bytes:
    unique: dict[tuple[int, int], Edit] = {}
    for e in edits:
        old = unique.get((e.start, e.end))
        if old is not None and old.new != e.new:
            raise EditConflict(f"bytes {e.start}-{e.end}: {old.new!r} vs {e.new!r}")
        unique[(e.start, e.end)] = e
    ordered = sorted(unique.values(), key=lambda e: (e.start, e.end))
    for a, b in zip(ordered, ordered[1:]):
        if b.start < a.end:
            raise EditConflict(
                f"overlapping edits at bytes {a.start}-{a.end} and {b.start}-{b.end}"
            )
    out = bytearray(source)
    for e in reversed(ordered):
        out[e.start : e.end] = e.new.encode()
    return bytes(out)


def prose_edits(source: bytes, root: Node) -> list[Edit]:
    """Edits that drop every comment and every statement that is only a string."""
    edits: list[Edit] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            if not _kept_comment(source, node):
                edits.append(_drop_comment(source, node))
            continue
        if node.type == "expression_statement" and _only_string(node):
            edits.append(_drop_statement(source, node))
            continue
        stack.extend(node.children)
    return edits


def _kept_comment(source: bytes, node: Node) -> bool:
    """A shebang or an encoding declaration: instructions to the interpreter."""
    row = node.start_point.row
    body = source[node.start_byte : node.end_byte]
    return (row == 0 and body.startswith(b"#!")) or (row <= 1 and b"coding" in body)


def _drop_comment(source: bytes, node: Node) -> Edit:
    start = node.start_byte
    while start > 0 and source[start - 1 : start] in (b" ", b"\t"):
        start -= 1
    return Edit(start, node.end_byte, "")


def _only_string(stmt: Node) -> bool:
    kids = [c for c in stmt.named_children if c.type != "comment"]
    return len(kids) == 1 and kids[0].type in ("string", "concatenated_string")


def _drop_statement(source: bytes, stmt: Node) -> Edit:
    lines = stmt.end_point.row - stmt.start_point.row
    line_start = source.rfind(b"\n", 0, stmt.start_byte) + 1
    line_end = source.find(b"\n", stmt.end_byte)
    line_end = len(source) if line_end < 0 else line_end
    before = source[line_start : stmt.start_byte]
    after = source[stmt.end_byte : line_end]
    alone = not before.strip() and (not after.strip() or after.strip().startswith(b"#"))
    block = stmt.parent
    siblings = [
        c for c in (block.named_children if block is not None else [])
        if c.type != "comment" and not (c.type == "expression_statement" and _only_string(c))
    ]  # fmt: skip
    needs_pass = block is not None and block.type == "block" and not siblings
    if alone and not needs_pass:
        return Edit(line_start, stmt.end_byte, "\n" * lines)
    return Edit(stmt.start_byte, stmt.end_byte, "pass" + "\n" * lines)
