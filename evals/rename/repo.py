"""A case folder as the renamer sees it: its Python files parsed with tree-sitter, the
module each file is, and how an import inside the repo resolves to one of them.

A module is named from each import root: the case folder, `src/` when it exists, and,
for a file run as a script, its own folder (Python puts it first on sys.path). A name
no root resolves is a library's (installed or not); the repo's own module wins a tie,
as it does at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from tree_sitter import Node, Tree

from torch_investigate.evals.seeding.apply import repo_files
from torch_investigate.tools.code.syntax import new_parser

CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".cfg", ".ini")
# Files whose names are a tool's convention, not the repo's vocabulary.
CONVENTIONAL_FILES = frozenset({"__init__.py", "__main__.py", "setup.py", "conftest.py"})
MAX_CONFIG_BYTES = 200_000  # a bigger JSON is data, not settings


class UnparsableFile(ValueError):
    """A Python file tree-sitter cannot parse: the repo is left as it is."""


@dataclass
class PyFile:
    rel: str  # forward slashes, relative to the case folder
    source: bytes
    tree: Tree

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @property
    def folder(self) -> str:
        parent = PurePosixPath(self.rel).parent.as_posix()
        return "" if parent == "." else parent

    @property
    def is_package_init(self) -> bool:
        return PurePosixPath(self.rel).name == "__init__.py"


@dataclass
class Repo:
    root: Path
    files: dict[str, bytes]  # every file of the case (what git would not ignore)
    python: dict[str, PyFile] = field(default_factory=dict)
    roots: list[str] = field(default_factory=list)  # import roots: "" and "src" if present
    # dotted module name -> file, from every import root
    modules: dict[str, str] = field(default_factory=dict)
    packages: set[str] = field(default_factory=set)  # folders that are packages

    @classmethod
    def load(cls, root: Path) -> Repo:
        files = {name: (root / name).read_bytes() for name in repo_files(root)}
        repo = cls(root=root, files=files)
        parser = new_parser()
        for rel, data in sorted(files.items()):
            if rel.endswith(".py"):
                tree = parser.parse(data)
                if tree.root_node.has_error:
                    raise UnparsableFile(f"{rel} does not parse: its names cannot be resolved")
                repo.python[rel] = PyFile(rel=rel, source=data, tree=tree)
        repo.roots = [""] + (["src"] if any(r.startswith("src/") for r in repo.python) else [])
        for rel in repo.python:
            for root_dir in repo.roots:
                name = _module_name(rel, root_dir)
                if name is not None:
                    repo.modules.setdefault(name, rel)
            folder = PurePosixPath(rel).parent
            if PurePosixPath(rel).name == "__init__.py":
                repo.packages.add(folder.as_posix())
        return repo

    # ---- modules -------------------------------------------------------------------

    def module_file(self, dotted: str, importer: PyFile | None = None) -> str | None:
        """The repo file an absolute import names (a package's `__init__.py`, a module, or
        a folder imported as a namespace package: then the folder with a trailing /)."""
        if importer is not None and importer.folder and not self._in_package(importer):
            found = self._lookup(dotted, prefix=importer.folder)  # a script's own folder
            if found is not None:
                return found
        return self._lookup(dotted)

    def _lookup(self, dotted: str, prefix: str = "") -> str | None:
        parts = dotted.split(".")
        roots = [prefix] if prefix else self.roots
        for root_dir in roots:
            base = "/".join(p for p in (root_dir, *parts) if p)
            if f"{base}.py" in self.python:
                return f"{base}.py"
            if f"{base}/__init__.py" in self.python:
                return f"{base}/__init__.py"
            if any(r.startswith(base + "/") for r in self.python):
                return base + "/"
        return None

    def _in_package(self, f: PyFile) -> bool:
        return f.folder in self.packages

    def relative_module(self, importer: PyFile, level: int, dotted: str) -> str | None:
        """`from ..x import y` inside importer: the file of `..x` (None outside the repo)."""
        folder = PurePosixPath(importer.rel).parent
        for _ in range(level - 1):
            folder = folder.parent
        base = folder.as_posix()
        base = "" if base == "." else base
        if not dotted:
            init = f"{base}/__init__.py" if base else "__init__.py"
            return init if init in self.python else (base + "/" if base else None)
        parts = dotted.split(".")
        path = "/".join(p for p in (base, *parts) if p)
        if f"{path}.py" in self.python:
            return f"{path}.py"
        if f"{path}/__init__.py" in self.python:
            return f"{path}/__init__.py"
        if any(r.startswith(path + "/") for r in self.python):
            return path + "/"
        return None

    def submodule(self, module_file: str, name: str) -> str | None:
        """`pkg.name` where pkg is the package file (its `__init__.py` or folder)."""
        folder = (
            module_file[: -len("__init__.py")]
            if module_file.endswith("__init__.py")
            else (module_file if module_file.endswith("/") else None)
        )
        if folder is None:
            return None
        path = f"{folder}{name}"
        if f"{path}.py" in self.python:
            return f"{path}.py"
        if f"{path}/__init__.py" in self.python:
            return f"{path}/__init__.py"
        if any(r.startswith(path + "/") for r in self.python):
            return path + "/"
        return None

    def config_files(self) -> list[str]:
        return [
            rel
            for rel, data in sorted(self.files.items())
            if rel.lower().endswith(CONFIG_SUFFIXES)
            and PurePosixPath(rel).name != "pyproject.toml"
            and len(data) <= MAX_CONFIG_BYTES
        ]


def _module_name(rel: str, root_dir: str) -> str | None:
    if root_dir and not rel.startswith(root_dir + "/"):
        return None
    inner = rel[len(root_dir) + 1 :] if root_dir else rel
    parts = inner[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)
