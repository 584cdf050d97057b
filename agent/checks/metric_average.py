"""Stage 7: an evaluation loss averaged over the wrong count. The tracer records every
evaluation loss call's value and the rows of its target; per pass, a loss summed over
each batch (reduction='sum') averages to a per-row figure over the rows, and a per-batch
mean averages over the batches (or, weighted, over the rows). The program's printed
numbers are compared with both: printing the batches' sums divided by the number of
batches (`total / len(loader)`), or their means divided by the number of rows (`total /
len(loader.dataset)`), reports a figure off by the batch size. The program's own `==`
count of an evaluation pass likewise divides to an accuracy over the rows it compared;
divided by the number of batches instead (`100. * correct / len(loader)`), or its batches'
accuracies added up and divided by the rows, it prints an accuracy no count of rows can
give. Only a printed number that equals the wrong average,
to its printed digits, and no right one, counts."""

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
# the chance that a printed number is a count divided by a whole number by accident,
# times the numbers tried, under which such a quotient is read as the program's figure
CHANCE_QUOTIENT = 0.01
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
    return _wrong_accuracy(session, t, printed)


def _wrong_accuracy(
    session: Session, t: Trace, printed: list[tuple[float, float]]
) -> tuple[str, Location | None, Frame] | None:
    """The program's `==` count of an evaluation pass divided by the number of its
    comparisons (one per batch) instead of the rows compared, as a fraction or a
    percentage. The counts themselves (`970/1000`) are right figures to print. A formula
    prints its wrong figure at every pass: most passes that can show one must show it (a
    single match among several passes is a number printed for something else, an
    iteration counter that happens to equal it)."""
    frame = t.eval_shift_frame
    passes: dict[int, list[tuple[int, int]]] = {}
    for step, matched, compared in t.eval_matches:
        passes.setdefault(step, []).append((matched, compared))
    found, hits, shown = None, 0, 0
    for step, calls in passes.items():
        b, n, m = len(calls), sum(c for _, c in calls), sum(h for h, _ in calls)
        if n < MIN_ROWS * b or m == 0:
            continue
        right = [m / n, 100 * m / n, float(m), float(n)]
        if any(_matches(r, printed) for r in right[:2]):
            return None  # the program prints its accuracy right somewhere
        means = sum(h / c for h, c in calls if c)  # each batch's accuracy, added up
        ways = {
            m / b: "the count divided by the number of batches instead of the rows",
            100 * m / b: "the count divided by the number of batches instead of the rows",
            means / n: "each batch's accuracy added up and divided by the rows",
            100 * means / n: "each batch's accuracy added up and divided by the rows",
        }
        wrong = [w for w in ways if all(abs(w - r) > 0.5 * r for r in right)]
        hit = next((w for w in wrong if _matches(w, printed)), None)
        if hit is None:
            hit = _over_all_rows(m, printed)
            if hit is not None:
                ways[hit[0]] = (
                    f"the count divided by {hit[1]}, fewer than the {m} rows it counted "
                    "right: an accuracy above 100%"
                )
                hit = hit[0]
        shown += bool(wrong) or hit is not None
        hits += hit is not None
        if hit is not None and found is None:
            found = (
                f"the program's own comparison counts {m} of {n} evaluation rows right in the "
                f"{b} batch(es) of the pass after {step} steps: an accuracy of "
                f"{fmt(100 * m / n)}%, but the program prints {fmt(hit)}, {ways[hit]}"
            )
    if found is None or frame is None or 2 * hits <= shown:
        return None
    return found, _divided_at(session, frame), frame


def _over_all_rows(m: int, printed: list[tuple[float, float]]) -> tuple[float, int] | None:
    """(the printed number, its divisor) when a printed number is the pass's count of
    matches divided by a whole number smaller than the count (`correct / seen` with
    `seen` adding something other than rows): an accuracy above 1, or above 100%,
    which no count of rows gives. Only a number printed precisely enough counts: the
    chance that its divisor lands on a whole number by accident, times the number of
    printed numbers over the bound, stays under CHANCE_QUOTIENT."""
    candidates = []
    for value, half in printed:
        for scale in (1.0, 100.0):
            if value <= scale or half <= 0:
                continue
            d = scale * m / value
            # a number printed within `half` of value puts the divisor within this of d
            slack = scale * m * half / value**2
            candidates.append((value, d, slack))
    for value, d, slack in candidates:
        whole = round(d)
        chance = 2 * slack * len(candidates)
        if chance <= CHANCE_QUOTIENT and 1 < whole < m and abs(d - whole) <= slack + 1e-9 * d:
            return value, whole
    return None


def _divided_at(session: Session, frame: Frame) -> Location | None:
    """The division by a length (`/ len(loader)`) in the function that calls the loss (or
    compares): the one dividing what the line at `frame` adds up (`total += ...`), else
    the first."""
    fn = _function_at(session, frame)
    if fn is None:
        return None
    divisions = list(_len_divisions(fn, frame.file, session))
    total = _accumulated_at(fn, frame.line)
    mine = [loc for loc, names in divisions if total in names]
    if not divisions and total is not None:
        line = _divisor_counted_at(fn, total)
        if line is not None:
            return Location(
                file=frame.file, line=line, symbol=session.index.enclosing_symbol(frame.file, line)
            )
    return next(iter(mine or [loc for loc, _ in divisions]), None)


def _divisor_counted_at(fn, total: str) -> int | None:
    """The line that adds into the divisor of `total` (`seen += ...` for `correct /
    max(seen, 1)`), where a count of something other than rows comes in."""
    added = [n for n in sx.descendants(fn) if n.type == "augmented_assignment"]
    for node, left, right in _divisions(fn):
        if node.type != "binary_operator" or total not in {
            sx.text(n) for n in (left, *sx.descendants(left))
        }:
            continue
        names = {sx.text(n) for n in (right, *sx.descendants(right)) if n.type == "identifier"}
        for n in added:
            if sx.text(n.child_by_field_name("left")) in names:
                return sx.line(n)
    return None


def _accumulated_at(fn, line: int) -> str | None:
    """The name the statement at `line` adds into (`correct += ...`)."""
    for node in sx.descendants(fn):
        if node.type == "augmented_assignment" and sx.line(node) == line:
            left = node.child_by_field_name("left")
            return sx.text(left) if left is not None else None
    return None


def _divisions(fn):
    """(node, left, right) of each division (`a / b`, `a /= b`) in the function."""
    for node in sx.descendants(fn):
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if (
            node.type in ("binary_operator", "augmented_assignment")
            and op is not None
            and sx.text(op) in ("/", "/=")
            and left is not None
            and right is not None
        ):
            yield node, left, right


def _len_divisions(fn, file: str, session: Session):
    """(location, the divided operand's text) of each division by a `len(...)`."""
    for node, left, right in _divisions(fn):
        if "len(" in sx.text(right):
            line = sx.line(node)
            names = {sx.text(n) for n in sx.descendants(left) if n.type == "identifier"}
            yield (
                Location(file=file, line=line, symbol=session.index.enclosing_symbol(file, line)),
                names | {sx.text(left)},
            )
