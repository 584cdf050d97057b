"""A repo being seeded, read through the code index, and the edits built from its nodes.

`Source` answers node-level questions (the statement on a line, the calls inside a
training loop, the local name of `torch`) and builds `Edit`s that keep Python valid:
statements are inserted with their neighbour's indentation, a deleted sole statement
leaves `pass`, a wrapped expression is parenthesized when it must be. Nothing writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.tools.code import CallSite, CodeIndex, TrainingLoop
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.loops import find_training_loops

# Expressions that bind tighter than any operator: they need no parentheses when an
# attribute, a subscript or an operator is added around them.
PRIMARY = frozenset(
    {
        "identifier",
        "attribute",
        "call",
        "subscript",
        "parenthesized_expression",
        "integer",
        "float",
        "string",
        "list",
        "tuple",
        "dictionary",
        "true",
        "false",
        "none",
    }
)
STATEMENT_PARENTS = frozenset({"block", "module"})


@dataclass
class Source:
    root: Path
    index: CodeIndex
    _loops: list[TrainingLoop] | None = field(default=None, repr=False)

    @classmethod
    def load(cls, root: Path) -> Source:
        return cls(root=root, index=CodeIndex.build(root))

    # ---- files, nodes and text ---------------------------------------------------

    @property
    def files(self) -> list[str]:
        return self.index.files

    def unit(self, file: str) -> FileUnit:
        unit = self.index.unit(file)
        if unit is None:
            raise KeyError(file)
        return unit

    def sources(self) -> dict[str, bytes]:
        return {f: self.unit(f).source for f in self.files}

    def calls(self, file: str | None = None) -> Iterator[tuple[CallSite, Node]]:
        for f in [file] if file else self.files:
            unit = self.unit(f)
            yield from zip(unit.calls, unit.call_nodes, strict=True)

    def statement(self, node: Node) -> Node:
        return sx.statement_of(node)

    def statements_at(self, file: str, line: int) -> list[Node]:
        """Statements (children of a block or the module) that start on line."""
        found: list[Node] = []
        stack = [self.unit(file).tree.root_node]
        while stack:
            node = stack.pop()
            if node.start_point.row + 1 > line or node.end_point.row + 1 < line:
                continue
            if (
                node.parent is not None
                and node.parent.type in STATEMENT_PARENTS
                and node.start_point.row + 1 == line
                and node.type != "comment"
            ):
                found.append(node)
            stack.extend(node.children)
        return found

    def call_on_line(self, file: str, line: int, method: str | None = None) -> Node | None:
        """The outermost call starting on line (whose method is `method`, if given)."""
        for call, node in self.calls(file):
            if call.line == line and (method is None or sx.method_name(node) == method):
                return node
        return None

    # ---- training loops ------------------------------------------------------------

    def loops(self) -> list[TrainingLoop]:
        if self._loops is None:
            self._loops = find_training_loops(self.index)
        return self._loops

    def loop_node(self, loop: TrainingLoop) -> Node | None:
        """The for/while statement of a loop-kind training loop."""
        if loop.kind != "loop":
            return None
        for node in self.statements_at(loop.file, loop.line_start):
            if node.type in sx.LOOP_TYPES:
                return node
        return None

    def in_loop(self, loop: TrainingLoop, file: str, line: int) -> bool:
        return file == loop.file and loop.line_start <= line <= loop.line_end

    def loop_calls(self, loop: TrainingLoop) -> list[tuple[CallSite, Node]]:
        return [(c, n) for c, n in self.calls(loop.file) if self.in_loop(loop, c.file, c.line)]

    # ---- imports ---------------------------------------------------------------------

    def name_for(self, file: str, dotted: str) -> str | None:
        """The local expression for `torch`, `torch.nn` or `torch.nn.functional`, if the
        file already binds it (`nn`, `F`, or through `torch`)."""
        imports = self.unit(file).imports
        for local, target in sorted(imports.items()):
            if target == dotted:
                return local
        for local, target in sorted(imports.items()):
            if dotted.startswith(target + "."):
                return local + dotted[len(target) :]
        return None

    def torch_expr(self, file: str, dotted: str = "torch") -> tuple[str, list[Edit]]:
        """An expression naming `dotted` in file, with the import edit it needs."""
        name = self.name_for(file, dotted)
        if name is not None:
            return name, []
        torch = self.name_for(file, "torch")
        if torch is not None:
            return torch + dotted[len("torch") :], []
        return dotted, [self.add_import(file, "import torch")]

    def add_import(self, file: str, statement: str) -> Edit:
        """An import placed after the file's last top-level import (or its docstring)."""
        root = self.unit(file).tree.root_node
        after: Node | None = None
        for child in root.named_children:
            if child.type in (
                "import_statement",
                "import_from_statement",
                "future_import_statement",
            ):
                after = child
            elif child.type == "expression_statement" and after is None and _is_docstring(child):
                after = child
            elif child.type != "comment":
                break
        if after is None:
            return Edit(file, 0, 0, statement + "\n")
        return Edit(file, after.end_byte, after.end_byte, "\n" + statement)

    # ---- edits -----------------------------------------------------------------------

    def indent(self, file: str, node: Node) -> str:
        line = self.unit(file).lines[node.start_point.row]
        return line[: len(line) - len(line.lstrip())]

    def replace(self, file: str, node: Node, text: str, *, anchor: bool = False) -> Edit:
        return Edit(file, node.start_byte, node.end_byte, text, 0 if anchor else None)

    def insert_after_node(self, file: str, node: Node, text: str, *, anchor: bool = False) -> Edit:
        """text right after node, on its last line (`, nn.ReLU()` after a last argument)."""
        return Edit(file, node.end_byte, node.end_byte, text, 0 if anchor else None)

    def operand(self, node: Node) -> str:
        """node's text, parenthesized unless it is a primary expression."""
        return sx.text(node) if node.type in PRIMARY else f"({sx.text(node)})"

    def insert_after(
        self, file: str, stmt: Node, code: str, *, anchor: bool = False, indent: str | None = None
    ) -> Edit:
        """New statement(s) after stmt, at stmt's indentation (or `indent`)."""
        data = self.unit(file).source
        end = data.find(b"\n", stmt.end_byte)
        end = len(data) if end < 0 else end
        pad = self.indent(file, stmt) if indent is None else indent
        text = "".join("\n" + (pad + line if line else "") for line in code.splitlines())
        return Edit(file, end, end, text, 1 if anchor else None)

    def insert_before(self, file: str, stmt: Node, code: str, *, anchor: bool = False) -> Edit:
        start = self._line_start(file, stmt)
        pad = self.indent(file, stmt)
        text = "".join((pad + line if line else "") + "\n" for line in code.splitlines())
        return Edit(file, start, start, text, 0 if anchor else None)

    def delete(self, file: str, stmt: Node, *, anchor: bool = False) -> Edit:
        """Remove the whole lines of stmt; a block left empty gets `pass`.

        The removed range runs from the newline before stmt to the end of its last
        line, so an insertion right after stmt's last line never overlaps it. As an
        anchor it points at the line that now holds the next statement."""
        data = self.unit(file).source
        line_end = data.find(b"\n", stmt.end_byte)
        line_end = len(data) if line_end < 0 else line_end
        block = stmt.parent
        siblings = [c for c in (block.named_children if block else []) if c.type != "comment"]
        keep = "pass" if block is not None and block.type == "block" and len(siblings) == 1 else ""
        start = self._line_start(file, stmt)
        if start == 0:  # the file's first line: no newline before it
            end = min(line_end + 1, len(data))
            text = self.indent(file, stmt) + keep + "\n" if keep else ""
            return Edit(file, 0, end, text, 0 if anchor else None)
        text = "\n" + self.indent(file, stmt) + keep if keep else ""
        return Edit(file, start - 1, line_end, text, 1 if anchor else None)

    def set_kwarg(
        self, file: str, call: Node, name: str, value: str, *, anchor: bool = False
    ) -> Edit:
        """`name=value` in call: the existing keyword's value replaced, or appended."""
        _, keywords = sx.call_args(call)
        if name in keywords:
            return self.replace(file, keywords[name], value, anchor=anchor)
        args = call.child_by_field_name("arguments")
        assert args is not None and args.children, "a call has an argument list"
        close = args.children[-1]
        prev = args.children[-2] if len(args.children) >= 2 else None
        if prev is None or prev.type == "(":
            text = f"{name}={value}"
        elif prev.type == ",":
            text = f" {name}={value}"
        else:
            text = f", {name}={value}"
        return Edit(file, close.start_byte, close.start_byte, text, 0 if anchor else None)

    def mark(self, file: str, node: Node) -> Edit:
        """An empty anchor edit: the ground truth is node's first line."""
        return Edit(file, node.start_byte, node.start_byte, "", 0)

    def statement_on(self, file: str, line: int) -> Node | None:
        """The innermost statement starting on line."""
        found = self.statements_at(file, line)
        return min(found, key=lambda n: n.end_byte - n.start_byte) if found else None

    def whole(self, stmt: Node) -> Node:
        """stmt, or the `for`/`with` around it when stmt is all that block holds
        (`for p in params: p.grad = None` is one thing to move or delete)."""
        current = stmt
        while True:
            block = current.parent
            if block is None or block.type != "block":
                return current
            owner = block.parent
            siblings = [c for c in block.named_children if c.type != "comment"]
            if owner is None or owner.type not in ("for_statement", "with_statement"):
                return current
            if len(siblings) != 1:
                return current
            current = owner

    def code(self, file: str, stmt: Node) -> str:
        """stmt's own text (no trailing comment), continuation lines dedented."""
        pad = len(self.indent(file, stmt))
        lines = sx.text(stmt).splitlines()
        rest = [line[pad:] if line[:pad].strip() == "" else line for line in lines[1:]]
        return "\n".join([lines[0], *rest])

    def dedented(self, file: str, stmt: Node) -> str:
        """The source lines of stmt without their common indentation."""
        lines = self.unit(file).lines[stmt.start_point.row : stmt.end_point.row + 1]
        pad = len(self.indent(file, stmt))
        return "\n".join(line[pad:] if line[:pad].strip() == "" else line for line in lines)

    def _line_start(self, file: str, node: Node) -> int:
        data = self.unit(file).source
        return data.rfind(b"\n", 0, node.start_byte) + 1


def _is_docstring(stmt: Node) -> bool:
    return stmt.named_child_count == 1 and stmt.named_children[0].type == "string"
