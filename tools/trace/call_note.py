"""One call of a repo helper the host suspects of taking its arguments in each other's
places (`note_call = "file:line:i:j"`, positions i and j). The call is rewritten in this
run's own copy (never the user's files) to go through `noted(helper, i, j)`, which records,
for every call under grad mode, how far the argument with a graph (the model's output) is
from the other one (mean squared difference over the other's variance) and, with
`swap_call`, passes the two in each other's places. The run as written and the swapped run
are rewritten alike, so the two differ only by the swap."""

from __future__ import annotations

import ast
import builtins
import copy
from pathlib import Path

import torch

from .recorder import Recorder

NAME = "__torch_investigate_noted__"


def parse(spec: str) -> tuple[str, int, int, int] | None:
    parts = spec.rsplit(":", 3)
    if len(parts) != 4 or not all(p.isdigit() for p in parts[1:]):
        return None
    return parts[0], int(parts[1]), int(parts[2]), int(parts[3])


def install(rec: Recorder, spec: str, swap: bool) -> None:
    """Rewrite the call named by `spec` and define the wrapper; a call that is not there
    leaves the run as written (the host sees no noted values)."""
    parsed = parse(spec)
    if parsed is not None and _rewrite_file(parsed[0], parsed[1], max(parsed[2:]), NAME, ""):
        i, j = parsed[2:]
        setattr(builtins, NAME, lambda fn, a=i, b=j: _noted(rec, fn, a, b, swap))


def install_metric(rec: Recorder, spec: str) -> None:
    """A metric helper's call (`dice(logits, mask)` in evaluation) rewritten to go through
    `metric_probe.probed`, which scores a perfect prediction beside the program's."""
    from . import metric_probe

    parsed = parse(spec)
    extra = f', "{spec}"'
    if parsed is not None and _rewrite_file(
        parsed[0], parsed[1], max(parsed[2:]), metric_probe.NAME, extra
    ):
        setattr(builtins, metric_probe.NAME, lambda fn, key: metric_probe.probed(rec, fn, key))


def _rewrite_file(file: str, line: int, needs: int, name: str, extra: str) -> bool:
    """Rewrite the call at `file:line` in this run's copy (a path inside it only)."""
    path = Path(file)
    if not path.is_file() or path.is_absolute() or ".." in path.parts:
        return False
    rewritten = _rewrite(path.read_bytes(), line, needs, name, extra)
    if rewritten is None:
        return False
    path.write_bytes(rewritten)
    return True


def _rewrite(
    source: bytes, line: int, needs: int, name: str = NAME, extra: str = ""
) -> bytes | None:
    """`helper(a, b)` at `line` as `name(helper<extra>)(a, b)`: the outermost call starting
    on that line with enough positional arguments."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and n.lineno == line
        and len(n.args) > needs
        and not any(isinstance(a, ast.Starred) for a in n.args[: needs + 1])
        and isinstance(n.func, (ast.Name, ast.Attribute))
    ]
    if not calls:
        return None
    call = min(calls, key=lambda n: n.col_offset)
    f = call.func
    lines = source.splitlines(keepends=True)
    if f.end_lineno != f.lineno:
        return None
    row = lines[f.lineno - 1]
    start, end = f.col_offset, f.end_col_offset
    # inside an f-string the extra's quotes may clash with the string's own before Python
    # 3.12: the other quote is tried
    for quoted in dict.fromkeys((extra, extra.replace('"', "'"))):
        lines[f.lineno - 1] = (
            row[:start] + f"{name}(".encode() + row[start:end] + f"{quoted})".encode() + row[end:]
        )
        rewritten = b"".join(lines)
        if _only_wrapped(tree, rewritten, name):
            return rewritten
    return None  # never hand the program a file it cannot compile, or one changed otherwise


def _only_wrapped(tree: ast.Module, rewritten: bytes, name: str) -> bool:
    """The rewritten file compiles and, with the wrappers taken off again, is the program
    as written with one wrapper more (another call may be wrapped already): positions
    inside an f-string are not reliable before Python 3.12, so where the text was cut is
    checked by what it parses to."""
    try:
        new = ast.parse(rewritten)
    except SyntaxError:
        return False
    before, after = _unwrapped(tree, name), _unwrapped(new, name)
    return after[0] == before[0] + 1 and after[1] == before[1]


def _unwrapped(tree: ast.Module, name: str) -> tuple[int, str]:
    """(calls wrapped by `name`, the dump of the tree with those wrappers taken off)."""
    wrapped = 0

    class Unwrap(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            nonlocal wrapped
            inner = node.func
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Name)
                and inner.func.id == name
                and inner.args
            ):
                wrapped += 1
                node.func = inner.args[0]
            self.generic_visit(node)
            return node

    dump = ast.dump(Unwrap().visit(copy.deepcopy(tree)))
    return wrapped, dump


def _noted(rec: Recorder, fn, i: int, j: int, swap: bool):
    def call(*args, **kwargs):
        args = list(args)
        a, b = args[i], args[j]
        if torch.is_grad_enabled() and isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            pred, target = (a, b) if a.requires_grad and not b.requires_grad else (b, a)
            if pred.requires_grad and not target.requires_grad and pred.numel() == target.numel():
                with torch.no_grad():
                    p, t = pred.detach().float().reshape(-1), target.detach().float().reshape(-1)
                    spread = float(t.var()) if t.numel() > 1 else 0.0
                    if spread > 0:
                        rec.call_fit.append(float(((p - t) ** 2).mean()) / spread)
        if swap:
            args[i], args[j] = b, a
        return fn(*args, **kwargs)

    return call
