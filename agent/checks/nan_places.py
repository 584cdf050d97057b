"""Where the non-finite values a run saw in a training batch are written: the run decides
the finding (NaN/inf reached the model or the loss), this only places it.

The model's input (or the loss's target) is followed back through the data flow, through
the loader to the arrays its dataset holds. On that way, a function that drops rows by a
NaN test (`keep = ~np.isnan(target)`) is where the rows with missing features should
have gone too: the finding goes to that test. Otherwise it goes to the expression that
writes the missing value (`np.nan` for an empty field, a lag padded with NaN). None when
the code does not say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.places import _calls_on
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.values import Value
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Frame

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# how numpy, torch and Python write a missing or infinite value
_MISSING = {"nan", "NaN", "NAN", "inf", "Inf", "infty"}
_NAN_TESTS = {"isnan", "isfinite", "isna", "notna", "isnull", "notnull", "dropna"}


def nonfinite_origin(
    session: Session, frame: Frame | None, *, position: int = 0, keyword: str = "input"
) -> Location | None:
    """Where the value passed at `position` (or as `keyword`) to the call at `frame` gets
    its missing values: a NaN test that drops rows on the way, else the expression that
    writes NaN/inf."""
    unit = session.index.unit(frame.file) if frame is not None else None
    if unit is None:
        return None
    a = analysis(session.index)
    for call in _calls_on(session, unit, frame, models=position == 0):
        arg = sx.argument(call, position, keyword)
        if arg is None:
            continue
        values = way_back(a, Value(arg, a.flow.frame_at(unit, arg)))
        writes = [v for v in values if _writes_missing(v.node)]
        if not writes:
            continue
        here = session.index.enclosing_symbol(frame.file, frame.line)
        symbols = {session.index.enclosing_symbol(v.file, v.line): v.file for v in values}
        symbols.pop(here, None)  # the training loop's own guards (`if math.isnan(loss)`)
        test = _nan_test(session, symbols)
        if test is not None:
            return test
        v = writes[0]
        return Location(
            file=v.file, line=v.line, symbol=session.index.enclosing_symbol(v.file, v.line)
        )
    return None


def way_back(a, start: Value) -> list[Value]:
    """Every expression on the data flow back from `start`, through one level of loader
    elements (a batch of `for xb, yb in loader`: the arrays its dataset holds)."""
    out: list[Value] = []
    todo: list[tuple[Value, tuple]] = [(start, ())]
    seen = 0
    while todo and seen < 4:
        v, unpacked = todo.pop(0)
        seen += 1
        for origin in a.flow.trace(v, dataflow=True):
            path, body = _to_comprehension(origin.path, unpacked)
            out.extend(path)
            if body is not None:
                todo.append((body, ()))
            elif origin.kind == "element":
                todo.append((origin.value, origin.value.index))
    return out


def _to_comprehension(path: list[Value], unpacked: tuple) -> tuple[list[Value], Value | None]:
    """`for x, y, keep in batches` over `batches = [build(...) for _ in ...]`: the
    unpacked position of each element is that position of the comprehension's body; the
    tracer follows the list itself past it, where a position means another thing. The
    path up to the comprehension, and its body at the unpacked position."""
    for k, v in enumerate(path if unpacked else ()):
        body = v.node.child_by_field_name("body")
        if v.node.type in ("list_comprehension", "generator_expression") and body is not None:
            return path[: k + 1], Value(body, v.frame, unpacked)
    return path, None


def _writes_missing(node) -> bool:
    """`np.nan`, `math.inf`, `torch.nan`, `float("nan")`."""
    if node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        return attr is not None and sx.text(attr) in _MISSING
    if node.type == "call" and sx.text(sx.call_function(node) or node) == "float":
        arg = sx.argument(node, 0, "x")
        return arg is not None and sx.text(arg).strip("'\"").lower().lstrip("+-") in {
            "nan",
            "inf",
            "infinity",
        }
    return False


def _nan_test(session: Session, symbols: dict[str | None, str]) -> Location | None:
    """The first NaN test (`np.isnan(target)`, `df.dropna(...)`) written in a function on
    the way."""
    for symbol, file in symbols.items():
        unit = session.index.unit(file) if symbol else None
        if unit is None:
            continue
        for call in unit.call_nodes:
            fn = sx.call_function(call)
            name = sx.text(fn).rsplit(".", 1)[-1] if fn is not None else ""
            line = sx.line(call)
            if (
                name in _NAN_TESTS
                and session.index.enclosing_symbol(file, line) == symbol
                and _selects_rows(call)
            ):
                return Location(file=file, line=line, symbol=symbol)
    return None


def _selects_rows(call) -> bool:
    """The test makes a mask or a table (`keep = ~np.isnan(y)`, `X[np.isfinite(X).all(1)]`,
    `df.dropna()`), not a condition (`if np.isnan(loss)`, `assert`)."""
    node = call.parent
    while node is not None:
        if node.type in ("subscript", "assignment", "augmented_assignment", "return_statement"):
            return True
        if node.type in ("if_statement", "while_statement", "assert_statement", "elif_clause"):
            return False
        if node.type in ("block", "module", "function_definition"):
            return False
        node = node.parent
    return False
