"""`--restyle`: the same program in another shape, where the change is mechanical.

- The training loop moves into a class: a module-level function whose loop calls
  `.backward()` becomes a method of a new class (`class C9:` above it, its lines
  indented, `f3 = C9().f3` below it, so callers are unchanged).
- Or out of one: a method holding that loop (of a top-level class, undecorated, without
  super()) moves after its class as a module-level function (`K.f3 = f3` below it).
- Small helpers are inlined: a module-level function whose body is one `return expr`,
  called only in its own file with positional arguments, is replaced at each call by
  `(expr)` with the arguments substituted, and its definition blanked. Not when an
  argument would be evaluated twice or not at all, or a name in expr means something
  else at the call.

Inlining keeps each line on its line (a call spread over lines keeps its newlines inside
the parentheses); a defect inside an inlined helper moves to its single call. Moving the
loop shifts lines, and the ground truth follows through the line map. Where nothing
applies (a loop at module level, a multi-line string inside the function, super() in the
method) the case is left as the rename made it, and the record says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import lookup
from torch_investigate.evals.rename.edits import Edit, apply
from torch_investigate.evals.rename.names import NameAllocator
from torch_investigate.evals.rename.program import FunctionInfo, Program
from torch_investigate.evals.rename.repo import PyFile, Repo
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.syntax import text

MOVED_IN = "training loop moved into a class"
MOVED_OUT = "training loop moved out of its class"
INLINED = "helper inlined"
NOT_MOVED = "training loop not moved"
SIMPLE_ARGS = frozenset({"identifier", "integer", "float", "string", "true", "false", "none"})


@dataclass
class LineMap:
    """Where ground truth moves: a defect inside an inlined helper goes to its call, and
    the lines of a file whose loop moved shift; symbols are read again from the
    restyled code."""

    folder: Path
    moved: dict[tuple[str, int], int] = field(default_factory=dict)  # inlined helpers
    shifted: dict[str, dict[int, int]] = field(default_factory=dict)  # file -> line -> line

    def map(self, truth: dict) -> None:
        file = truth["file"]
        line = self.moved.get((file, truth["line"]), truth["line"])
        truth["line"] = self.shifted.get(file, {}).get(line, line)
        if file.endswith(".py") and (self.folder / file).is_file():
            index = CodeIndex.build(self.folder)
            truth["symbol"] = index.enclosing_symbol(file, truth["line"])


def restyle_repo(
    folder: Path, truths: list[tuple[str, int]] | None = None
) -> tuple[list[str], LineMap]:
    """Restyle the repo in place; (what was done, one line each; the line map)."""
    truths = truths or []
    lines = LineMap(folder)
    done: list[str] = []
    done += _inline_helpers(folder, truths, lines)
    done += _move_loop(folder, lines)
    return done, lines


# ---- helpers inlined ----------------------------------------------------------------------


def _inline_helpers(folder: Path, truths: list[tuple[str, int]], lines: LineMap) -> list[str]:
    repo = Repo.load(folder)
    program = Program.build(repo)
    done = []
    for rel, f in repo.python.items():
        fs = program.files[rel]
        edits: list[Edit] = []
        for fn in [x for x in program.functions.values() if x.file == rel]:
            plan = _inline_plan(program, f, fn, truths)
            if plan is None:
                continue
            calls, body_edits = plan
            for call in calls:
                edits.append(_inlined_call(f, fn, call, fs))
            edits += body_edits
            rows = range(fn.node.start_point.row + 1, fn.node.end_point.row + 2)
            inside = [line for file, line in truths if file == rel and line in rows]
            for line in inside:
                lines.moved[(rel, line)] = calls[0].start_point.row + 1
            done.append(f"{INLINED}: {fn.name} ({len(calls)} call{'s' * (len(calls) > 1)})")
        if edits:
            (folder / rel).write_bytes(apply(f.source, edits))
    return done


def _inline_plan(
    program: Program, f: PyFile, fn: FunctionInfo, truths
) -> tuple[list[Node], list[Edit]] | None:  # noqa: ANN001
    node = fn.node
    if fn.owner is not None or node.parent is None or node.parent.type != "module":
        return None
    if any(t.type == "async" for t in node.children):
        return None
    if not fn.params or any(p.kind != "positional" for p in fn.params):
        return None
    plist = node.child_by_field_name("parameters")
    if plist is None or any(
        c.type not in ("identifier", "typed_parameter") for c in plist.named_children
    ):
        return None
    body = node.child_by_field_name("body")
    statements = [s for s in body.named_children if s.type != "pass_statement"] if body else []
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    expr = statements[0].named_children[0] if statements[0].named_children else None
    if expr is None or _has(expr, ("yield", "await", "named_expression", "lambda")):
        return None
    if "\\\n" in text(expr) or _has_multiline_string(expr):
        return None
    fs = program.files[fn.file]
    binding = fs.module.bindings.get(fn.name)
    if binding is None or len(binding.sites) != 1:
        return None
    calls = []
    for use in fs.names:
        if use.binding is not binding:
            continue
        parent = use.node.parent
        if (
            parent is None
            or parent.type != "call"
            or parent.child_by_field_name("function") != use.node
        ):
            return None  # used as a value
        calls.append(parent)
    if not calls:
        return None
    for other, ofs in program.files.items():
        if other != fn.file and any(text(u.node) == fn.name for u in ofs.import_names):
            return None
    rows = range(node.start_point.row + 1, node.end_point.row + 2)
    if len(calls) > 1 and any(file == fn.file and line in rows for file, line in truths):
        return None
    params = {p.name: p.binding for p in fn.params}
    uses: dict[str, int] = {name: 0 for name in params}
    for use in fs.names:
        if _within(use.node, expr):
            if use.binding is not None and use.binding in params.values():
                uses[use.binding.name] += 1
            elif not _same_meaning(program, use, calls):
                return None
    for call in calls:
        args = _positional_args(call)
        if args is None or len(args) != len(fn.params):
            return None
        if _within(call, node):
            return None  # recursive
        for p, arg in zip(fn.params, args):
            if uses[p.name] != 1 and arg.type not in SIMPLE_ARGS:
                return None
    blank = _blank_lines(f.source, node)
    return calls, [blank]


def _inlined_call(f: PyFile, fn: FunctionInfo, call: Node, fs) -> Edit:  # noqa: ANN001
    """`(expr)` with the call's arguments in place of the parameters, on as many lines
    as the call took."""
    body = fn.node.child_by_field_name("body")
    ret = next(s for s in body.named_children if s.type == "return_statement")
    expr = ret.named_children[0]
    args = _positional_args(call) or []
    by_param = {p.name: a for p, a in zip(fn.params, args)}
    out = bytearray(f.source[expr.start_byte : expr.end_byte])
    replaced = []
    for use in fs.names:
        b = use.binding
        if _within(use.node, expr) and b is not None and b.scope is fn.scope and b.name in by_param:
            new = f"({_flat(text(by_param[b.name]))})".encode()
            replaced.append(
                (use.node.start_byte - expr.start_byte, use.node.end_byte - expr.start_byte, new)
            )
    for start, end, new in sorted(replaced, reverse=True):
        out[start:end] = new
    newlines = call.end_point.row - call.start_point.row
    return Edit(call.start_byte, call.end_byte, f"({_flat(out.decode())}{chr(10) * newlines})")


def _same_meaning(program: Program, use, calls: list[Node]) -> bool:  # noqa: ANN001
    """A free name of the helper's expression means the same at every call."""
    name = text(use.node)
    for call in calls:
        scope = _scope_at(program, use.scope.file, call)
        if scope is None or lookup(scope, name) is not use.binding:
            return False
    return True


def _scope_at(program: Program, file: str, node: Node):  # noqa: ANN202
    fs = program.files[file]
    best = fs.module
    for scope in fs.scopes:
        if scope.node.start_byte <= node.start_byte and node.end_byte <= scope.node.end_byte:
            if (
                scope.node.end_byte - scope.node.start_byte
                < best.node.end_byte - best.node.start_byte
            ):
                best = scope
    return best


def _positional_args(call: Node) -> list[Node] | None:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return None
    out = []
    for a in args.named_children:
        if a.type in ("keyword_argument", "list_splat", "dictionary_splat"):
            return None
        if a.type != "comment":
            out.append(a)
    return out


# ---- the training loop moved ----------------------------------------------------------------


def _move_loop(folder: Path, lines: LineMap) -> list[str]:
    repo = Repo.load(folder)
    program = Program.build(repo)
    loops = [fn for fn in program.functions.values() if _holds_training_loop(fn.node)]
    if not loops:
        return [f"{NOT_MOVED}: no function holds it (a loop at module level)"]
    taken = set()
    for f in repo.python.values():
        stack = [f.root]
        while stack:
            n = stack.pop()
            if n.type == "identifier":
                taken.add(text(n))
            stack.extend(n.children)
    names = NameAllocator(taken)
    reasons = []
    for fn in sorted(loops, key=lambda x: (x.file, x.node.start_byte)):
        f = repo.python[fn.file]
        if fn.owner is None:
            moved, why = _into_class(f, fn, names)
        else:
            moved, why = _out_of_class(program, f, fn)
        if moved is not None:
            source, shift = moved
            (folder / fn.file).write_bytes(source)
            lines.shifted[fn.file] = shift
            kind = MOVED_IN if fn.owner is None else MOVED_OUT
            return [f"{kind}: {fn.name} ({fn.file})"]
        reasons.append(f"{fn.name}: {why}")
    return [f"{NOT_MOVED}: {'; '.join(reasons)}"]


def _holds_training_loop(node: Node) -> bool:
    body = node.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("function_definition", "class_definition", "lambda"):
            continue
        if n.type in ("for_statement", "while_statement") and _calls(n, "backward"):
            return True
        stack.extend(n.named_children)
    return False


def _calls(node: Node, method: str) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("function_definition", "class_definition", "lambda"):
            continue
        if n.type == "call":
            func = n.child_by_field_name("function")
            attr = (
                func.child_by_field_name("attribute")
                if func is not None and func.type == "attribute"
                else None
            )
            if attr is not None and text(attr) == method:
                return True
        stack.extend(n.named_children)
    return False


Moved = tuple[bytes, dict[int, int]] | None  # the new source, old line -> new line


def _into_class(f: PyFile, fn: FunctionInfo, names: NameAllocator) -> tuple[Moved, str]:
    """`class K:` above the function, its lines indented, `f = K().f` below it."""
    decorated = fn.node.parent is not None and fn.node.parent.type == "decorated_definition"
    top = fn.node.parent if decorated else fn.node
    if top.parent is None or top.parent.type != "module":
        return None, "not at a module's top level"
    if _has_multiline_string(top):
        return None, "it holds a multi-line string"
    plist = fn.node.child_by_field_name("parameters")
    opening = plist.start_byte + 1
    source = apply(f.source, [Edit(opening, opening, "self, " if plist.named_children else "self")])
    lines = source.decode().split("\n")
    first, last = top.start_point.row, top.end_point.row
    klass = names.new("C")
    body = ["    " + line if line.strip() else line for line in lines[first : last + 1]]
    alias = f"{fn.name} = {klass}().{fn.name}"
    new = lines[:first] + [f"class {klass}:"] + body + [alias] + lines[last + 1 :]
    shift = {
        r + 1: (r if r < first else r + 1 if r <= last else r + 2) + 1 for r in range(len(lines))
    }
    return ("\n".join(new).encode(), shift), ""


def _out_of_class(program: Program, f: PyFile, fn: FunctionInfo) -> tuple[Moved, str]:
    """The method, dedented, after its class; `K.f = f` below it."""
    cls = fn.owner
    assert cls is not None
    if cls.node.parent is None or cls.node.parent.type not in ("module", "decorated_definition"):
        return None, "its class is not at a module's top level"
    if fn.decorators or fn.is_static or fn.is_classmethod:
        return None, "a decorated method"
    body = cls.node.child_by_field_name("body")
    members = [c for c in body.named_children if c.type not in ("comment", "pass_statement")]
    if len(members) < 2:
        return None, "the only member of its class"
    if "super(" in text(fn.node) or "self.__" in text(fn.node):
        return None, "it calls super() or uses private names"
    if _has_multiline_string(fn.node):
        return None, "it holds a multi-line string"
    if fn.name in program.files[fn.file].module.bindings:
        return None, "its name is taken at module level"
    lines = f.source.decode().split("\n")
    first, last = fn.node.start_point.row, fn.node.end_point.row
    end = cls.node.end_point.row
    indent = fn.node.start_point.column
    if any(line.strip() and line[:indent].strip() for line in lines[first : last + 1]):
        return None, "uneven indentation"
    method = [line[indent:] if line.strip() else "" for line in lines[first : last + 1]]
    alias = f"{cls.name}.{fn.name} = {fn.name}"
    new = lines[:first] + lines[last + 1 : end + 1] + [""] + method + [alias] + lines[end + 1 :]
    k = last - first + 1

    def to(r: int) -> int:
        if r < first:
            return r
        if r <= last:
            return end - k + 2 + (r - first)
        if r <= end:
            return r - k
        return r + 2

    return ("\n".join(new).encode(), {r + 1: to(r) + 1 for r in range(len(lines))}), ""


# ---- small helpers ----------------------------------------------------------------------------


def _line_start(source: bytes, row: int) -> int:
    pos = 0
    for _ in range(row):
        pos = source.index(b"\n", pos) + 1
    return pos


def _line_span(source: bytes, row: int) -> tuple[int, int]:
    start = _line_start(source, row)
    end = source.find(b"\n", start)
    return start, len(source) if end < 0 else end


def _blank_lines(source: bytes, node: Node) -> Edit:
    start = _line_start(source, node.start_point.row)
    return Edit(start, node.end_byte, "\n" * (node.end_point.row - node.start_point.row))


def _within(inner: Node, outer: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _has(node: Node, types: tuple[str, ...]) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            return True
        stack.extend(n.children)
    return False


def _has_multiline_string(node: Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "string" and n.end_point.row > n.start_point.row:
            return True
        stack.extend(n.children)
    return False


def _flat(code: str) -> str:
    return " ".join(part.strip() for part in code.split("\n"))
