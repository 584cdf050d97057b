"""What a static check is, and how it writes a finding.

A check is a function from the shared analysis to findings, registered with the
taxonomy categories it may report. Findings from code alone are `plausible`: the
runtime stage confirms or refutes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.flow import Flow, Value
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.records import Symbol
from torch_investigate.tools.records import Confidence, Finding, Location, Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy

COMPOUND = frozenset(
    {
        "for_statement",
        "while_statement",
        "if_statement",
        "with_statement",
        "try_statement",
        "function_definition",
    }
)
MAX_QUOTE = 160


@dataclass(frozen=True)
class CheckContext:
    index: CodeIndex
    analysis: Analysis

    @property
    def flow(self) -> Flow:
        return self.analysis.flow


CheckFn = Callable[[CheckContext], Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    name: str  # `softmax_before_ce`; the detector is `static.<name>`
    categories: tuple[str, ...]
    run: CheckFn
    summary: str


REGISTRY: list[Check] = []


def check(name: str, *categories: str) -> Callable[[CheckFn], CheckFn]:
    """Registers a check function under `name` for the given taxonomy categories."""
    for c in categories:
        taxonomy().category(c)  # an unknown id fails at import, not at run time

    def register(fn: CheckFn) -> CheckFn:
        doc = (fn.__doc__ or "").strip().splitlines()
        REGISTRY.append(Check(name, categories, fn, doc[0] if doc else name))
        return fn

    return register


@dataclass(frozen=True)
class Spot:
    """A place in the code a finding or an observation points at."""

    file: str
    line: int
    symbol: str
    code: str  # the quoted source

    def __str__(self) -> str:
        return f"{self.file}:{self.line} ({self.symbol}): `{self.code}`"


def spot(ctx: CheckContext, v: Value | tuple[str, Node]) -> Spot:
    if isinstance(v, Value):
        unit, node = v.frame.unit, v.node
    else:
        found = ctx.index.unit(v[0])
        assert found is not None
        unit, node = found, v[1]
    line = sx.line(node)
    return Spot(
        unit.file, line, ctx.index.enclosing_symbol(unit.file, line), quote(unit.lines, node)
    )


def symbol_spot(ctx: CheckContext, symbol: Symbol) -> Spot:
    """The `class`/`def` line of a repo symbol."""
    unit = ctx.index.unit(symbol.file)
    assert unit is not None
    line = symbol.def_line
    code = unit.lines[line - 1].strip() if line <= len(unit.lines) else symbol.qualname
    return Spot(symbol.file, line, symbol.qualname, code)


def quote(lines: list[str], node: Node) -> str:
    """The statement holding node, on one line and without comments (the header line
    for compound statements), cut to MAX_QUOTE characters."""
    statement = sx.statement_of(node)
    if statement.type in COMPOUND or node.type in COMPOUND:
        row = sx.line(node if node.type in COMPOUND else statement)
        text = lines[row - 1].split("#", 1)[0].strip() if row <= len(lines) else sx.flat(node)
    else:
        text = _without_comments(statement)
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 3] + "..."


def _without_comments(node: Node) -> str:
    raw = node.text or b""
    cuts = [
        (c.start_byte - node.start_byte, c.end_byte - node.start_byte)
        for c in sx.descendants(node)
        if c.type == "comment"
    ]
    for start, end in reversed(cuts):
        raw = raw[:start] + raw[end:]
    text = " ".join(raw.decode("utf-8", "replace").split())
    return text.replace("( ", "(").replace("[ ", "[").replace(" )", ")").replace(" ]", "]")


def observe(s: Spot, note: str, **values: object) -> Observation:
    return Observation(
        source="static",
        text=f"{s}: {note}" if note else str(s),
        values=dict(values),
        where=Location(file=s.file, line=s.line, symbol=s.symbol),
    )


def finding(
    category: str,
    at: Spot,
    *,
    confidence: Confidence,
    evidence: list[Observation],
    why: str,
    confirm: str,
    title: str = "",
) -> Finding:
    return Finding(
        category=category,
        title=title,
        stage=Stage(taxonomy().category(category).stage),
        status="plausible",
        confidence=confidence,
        file=at.file,
        symbol=at.symbol,
        line=at.line,
        evidence=evidence,
        why=why,
        confirm=confirm,
        detector=f"static.{category}",
    )
