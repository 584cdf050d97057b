"""Stage 7: an evaluation loss averaged over the wrong count. The tracer records every
evaluation loss call's value and the rows of its target; per pass, a loss summed over
each batch (reduction='sum') averages to a per-row figure over the rows, and a per-batch
mean averages over the batches (or, weighted, over the rows). The program's printed
numbers are compared with both: printing the batches' sums divided by the number of
batches (`total / len(loader)`), or their means divided by the number of rows (`total /
len(loader.dataset)`), reports a figure off by the batch size. Only a printed number
that equals the wrong average, to its printed digits, and no right one, counts."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.places import _function_at
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# rows per batch the wrong average must be off by, at least (a batch of one row, or of
# two, makes the two averages nearly the same figure)
MIN_ROWS = 4
MIN_DIGITS = 3  # significant digits a printed number needs to be read as a match
NUMBER = re.compile(r"(?<![\w.])[-+]?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?![\w.])")


def printed_numbers(stdout: str) -> list[tuple[float, float]]:
    """(value, half a unit of its last printed digit) for each number printed with at
    least MIN_DIGITS significant digits."""
    out = []
    for m in NUMBER.finditer(stdout):
        whole, frac, exp = m.group(1), m.group(2) or "", m.group(3)
        digits = (whole + frac).lstrip("0")
        if len(digits) < MIN_DIGITS:
            continue
        value = float(m.group(0))
        half = 0.5 * 10.0 ** (-len(frac) + (int(exp) if exp else 0))
        out.append((value, half))
    return out


def _matches(value: float, printed: list[tuple[float, float]]) -> bool:
    return any(abs(p - value) <= half + 1e-9 * abs(value) for p, half in printed)


def wrong_average(session: Session, t: Trace) -> tuple[str, Location | None, Frame] | None:
    """(the observation, where the average is taken, the loss site) for the first
    evaluation loss site whose printed average uses the wrong count."""
    run = session.baseline()
    stdout = run.result.stdout if run is not None else ""
    printed = printed_numbers(stdout or "")
    if not printed or len(t.eval_loss_rows) != len(t.eval_losses):
        return None
    reductions = {
        f"{c.frame.file}:{c.frame.line}": (c.reduction, c.frame)
        for c in t.eval_loss_calls()
        if c.frame is not None
    }
    passes: dict[tuple[str, int], list[tuple[float, int]]] = {}
    for (step, site, value), rows in zip(t.eval_losses, t.eval_loss_rows, strict=True):
        if isinstance(value, float) and site in reductions:
            passes.setdefault((site, step), []).append((value, rows))
    right_seen: set[str] = set()
    found: dict[str, str] = {}
    for (site, step), calls in passes.items():
        reduction, _ = reductions[site]
        b, n = len(calls), sum(r for _, r in calls)
        total = sum(v for v, _ in calls)
        if b < 2 or n < MIN_ROWS * b or reduction not in ("sum", "mean"):
            continue
        if reduction == "sum":
            right = [total / n, total]
            wrong, how = total / b, "its batches' sums divided by the number of batches"
        else:
            right = [total / b, sum(v * r for v, r in calls) / n, total]
            wrong, how = total / n, "its batches' means divided by the number of rows"
        if any(_matches(r, printed) for r in right):
            right_seen.add(site)
        elif _matches(wrong, printed) and all(
            abs(wrong - r) > 0.5 * abs(r) for r in right if math.isfinite(r)
        ):
            found.setdefault(
                site,
                f"the evaluation loss at {site} (reduction='{reduction}') adds up to "
                f"{fmt(total)} over the {b} batches ({n} rows) of the pass after {step} steps: "
                f"its average is {fmt(right[0])} per {'row' if reduction == 'sum' else 'batch'}, "
                f"but the program prints {fmt(wrong)}, {how}",
            )
    for site, text in found.items():
        if site not in right_seen:
            frame = reductions[site][1]
            return text, _divided_at(session, frame), frame
    return None


def _divided_at(session: Session, frame: Frame) -> Location | None:
    """The division by a length (`/ len(loader)`) in the function that calls the loss."""
    fn = _function_at(session, frame)
    if fn is None:
        return None
    for node in sx.descendants(fn):
        right = node.child_by_field_name("right")
        op = node.child_by_field_name("operator")
        if (
            node.type in ("binary_operator", "augmented_assignment")
            and op is not None
            and sx.text(op) in ("/", "/=")
            and right is not None
            and "len(" in sx.text(right)
        ):
            line = sx.line(node)
            return Location(
                file=frame.file, line=line, symbol=session.index.enclosing_symbol(frame.file, line)
            )
    return None
