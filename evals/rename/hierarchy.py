"""The repo's classes among themselves: a class's repo bases in resolution order, its
subclasses, the class that defines a member, and the library bases it inherits from
(a base is read with the kind inference it is given)."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import Scope
from torch_investigate.evals.rename.kind import Kind
from torch_investigate.evals.rename.program import ClassInfo, NodeKey, Program, node_key


class ClassHierarchy:
    def __init__(self, program: Program, kind_of: Callable[[Node, Scope], Kind]) -> None:
        self.p = program
        self.of = kind_of
        self._subclasses: dict[NodeKey, list[ClassInfo]] | None = None

    def mro(self, cls: ClassInfo, seen: set | None = None) -> list[ClassInfo]:
        """The repo classes in cls's method resolution order (library bases left out)."""
        seen = seen if seen is not None else set()
        key = node_key(cls.file, cls.node)
        if key in seen:
            return []
        seen.add(key)
        out = [cls]
        for base in cls.bases:
            k = self.of(base, cls.outer)
            if k.tag == "class":
                for ref in sorted(k.refs):
                    inner = self.p.classes.get(ref)
                    if inner is not None:
                        out += self.mro(inner, seen)
        return out

    def find_member(self, cls: ClassInfo, name: str) -> ClassInfo | None:
        """The repo class (in cls's MRO, or a subclass) that defines `name`."""
        for c in self.mro(cls):
            if name in c.members:
                return c
        for sub in self.subclasses(cls):
            if name in sub.members:
                return sub
        return None

    def library_bases(self, cls: ClassInfo) -> list[str | None]:
        """Dotted paths of the non-repo bases in cls's MRO (None: a base whose origin is
        unknown)."""
        out: list[str | None] = []
        for c in self.mro(cls):
            for base in c.bases:
                k = self.of(base, c.outer)
                if k.tag == "class":
                    continue
                out.append(k.path if k.tag == "lib" else None)
        return out

    def library_base(self, cls: ClassInfo) -> str | None:
        paths = [p for p in self.library_bases(cls) if p and p != "builtins.object"]
        return paths[0] if paths else None

    def subclass_keys(self, cls: ClassInfo) -> list[NodeKey]:
        return [node_key(c.file, c.node) for c in self.subclasses(cls)]

    def subclasses(self, cls: ClassInfo) -> list[ClassInfo]:
        if self._subclasses is None:
            self._subclasses = {}
            for c in self.p.classes.values():
                for base in self.mro(c)[1:]:
                    self._subclasses.setdefault(node_key(base.file, base.node), []).append(c)
        return self._subclasses.get(node_key(cls.file, cls.node), [])
