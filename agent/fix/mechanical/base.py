"""The mechanical fix interface: a category, the edit it makes, and a generator of
candidate edits for one confirmed finding.

A fixer reads the finding (its file, line, symbol and the places its evidence names),
the baseline trace and the code index, and yields `Candidate`s, most direct first. A
candidate is only a proposal: verification (agent/fix/verify.py) runs each one and keeps
what makes the repo learn again. Fixers never write files; edits are byte ranges of the
files as the index read them (evals/seeding/edits.py, shared with the seeding operators).

`NOT_MECHANICAL` says, per category, why no edit can be derived from what the run shows:
those findings get a patch only from a model (`--model`, agent/fix/propose.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.records import Finding, Report
from torch_investigate.tools.tracefile.trace import Trace


@dataclass(frozen=True)
class Candidate:
    change: str  # one line for a person: what the edit does, with file:line
    edits: tuple[Edit, ...]


@dataclass
class FixContext:
    """What a fixer may read: the repo as indexed before anything ran, the report, and
    the baseline run's trace (None when the training path did not run)."""

    source: Source
    report: Report
    trace: Trace | None

    def places(self, finding: Finding) -> list[tuple[str, int]]:
        """(file, line) the finding and its evidence name, the finding's own first; only
        files the index holds."""
        found: list[tuple[str, int]] = []
        if finding.file and finding.line:
            found.append((finding.file, finding.line))
        for obs in finding.evidence:
            if obs.where is not None and obs.where.file and obs.where.line:
                found.append((obs.where.file, obs.where.line))
        files = set(self.source.files)
        return [p for p in dict.fromkeys(found) if p[0] in files]

    def statement(self, file: str, line: int) -> Node | None:
        """The innermost statement that starts on line, else the innermost one that
        spans it."""
        node = self.source.statement_on(file, line)
        if node is not None:
            return node
        best: Node | None = None
        stack = [self.source.unit(file).tree.root_node]
        while stack:
            n = stack.pop()
            if not (sx.line(n) <= line <= sx.end_line(n)):
                continue
            if n.parent is not None and n.parent.type in ("block", "module"):
                best = n
            stack.extend(n.children)
        return best

    def calls_at(self, finding: Finding) -> Iterator[tuple[str, Node]]:
        """(file, call) for every call in the statement at each of the finding's places."""
        for file, line in self.places(finding):
            stmt = self.statement(file, line)
            if stmt is not None:
                for call in sx.calls_in(stmt):
                    yield file, call

    def calls_on(self, file: str, line: int) -> list[Node]:
        """Every call node that starts on line, outermost first."""
        stmt = self.statement(file, line)
        if stmt is None:
            return []
        return [c for c in sx.calls_in(stmt) if sx.line(c) == line]


Fixer = Callable[[FixContext, Finding], Iterator[Candidate]]


@dataclass(frozen=True)
class MechanicalFix:
    category: str
    how: str  # one line: the edit, in the words of the intervention it reproduces
    find: Fixer

    def candidates(self, ctx: FixContext, finding: Finding) -> list[Candidate]:
        seen: set[tuple] = set()
        found = []
        for c in self.find(ctx, finding):
            key = tuple((e.file, e.start, e.end, e.text) for e in c.edits)
            if c.edits and key not in seen:
                seen.add(key)
                found.append(c)
        return found


REGISTRY: dict[str, MechanicalFix] = {}


def fixer(category: str, how: str) -> Callable[[Fixer], Fixer]:
    def register(find: Fixer) -> Fixer:
        if category in REGISTRY:
            raise ValueError(f"two fixers for {category}")
        REGISTRY[category] = MechanicalFix(category, how, find)
        return find

    return register


def at(file: str, node: Node) -> str:
    return f"{file}:{sx.line(node)}"
