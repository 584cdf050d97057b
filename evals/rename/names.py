"""Neutral names: `m3` for modules, `C2` for classes, `f1` for functions and methods,
`v17` for everything else, numbered per prefix and never equal to a spelling the repo,
its strings, its configs or its libraries already use."""

from __future__ import annotations

import builtins
import keyword


class NameAllocator:
    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken) | set(dir(builtins)) | set(keyword.kwlist)
        self.counters: dict[str, int] = {}

    def new(self, prefix: str) -> str:
        n = self.counters.get(prefix, 0)
        while True:
            n += 1
            name = f"{prefix}{n}"
            if name not in self.taken:
                self.counters[prefix] = n
                self.taken.add(name)
                return name
