"""The operator interface: a category, how it seeds, and a generator of mutations.

An operator reads a `Source` and yields every `Mutation` it can make there, best
first. A mutation is a complete seeding (its edits, one of them the anchor) named by a
`variant` that is stable across runs: `<spelling>@<file>:<line of the original site>`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from torch_investigate.evals.seeding.edits import Edit
from torch_investigate.evals.seeding.source import Source


@dataclass(frozen=True)
class Mutation:
    spelling: str  # `delete`, `torch.softmax`, `subset_first`...
    site: str  # `train.py:44`: where the original code was
    change: str  # one line for a person: what changed, with file:line
    edits: tuple[Edit, ...]
    # Mutations of one site with the same non-empty `same_as` are spellings of one
    # change (`torch.softmax(x, dim=1)` / `x.softmax(dim=1)`): they behave the same.
    same_as: str = ""

    @property
    def variant(self) -> str:
        return f"{self.spelling}@{self.site}"


Finder = Callable[[Source], Iterator[Mutation]]


@dataclass(frozen=True)
class Operator:
    category: str
    how: str  # one line: the transform
    find: Finder

    def mutations(self, src: Source) -> list[Mutation]:
        seen: set[str] = set()
        found = []
        for m in self.find(src):
            if m.variant not in seen:  # two routes to the same site seed it once
                seen.add(m.variant)
                found.append(m)
        return found


REGISTRY: dict[str, Operator] = {}


def operator(category: str, how: str) -> Callable[[Finder], Finder]:
    def register(find: Finder) -> Finder:
        if category in REGISTRY:
            raise ValueError(f"two operators for {category}")
        REGISTRY[category] = Operator(category, how, find)
        return find

    return register


def site(file: str, line: int) -> str:
    return f"{file}:{line}"
