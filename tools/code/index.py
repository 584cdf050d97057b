"""The code index: every Python file of a repo parsed once with tree-sitter.

`CodeIndex.build(root)` reads the files, `enclosing_symbol(file, line)` maps a runtime
location back to `Class.method` / `function` / `<module>`, and the lookups answer
"where is the optimizer, the loss, the model class, the training loop".
"""

from __future__ import annotations

import difflib
import gc
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TypeVar, cast

from tree_sitter import Node, Parser

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.discover import (
    check_source,
    iter_python_files,
    read_source,
    relative_name,
)
from torch_investigate.tools.code.extract import FileUnit, RawAssignment, base_call, extract
from torch_investigate.tools.code.names import (
    is_data_loader,
    is_optimizer,
    is_scheduler,
    is_torch_module_class,
    last,
    loss_class_kind,
    loss_function_kind,
    resolve,
    torch_layer,
)
from torch_investigate.tools.code.records import (
    MODULE_SYMBOL,
    Assignment,
    AssignmentKind,
    CallSite,
    ImportBinding,
    ParseIssue,
    SkippedFile,
    Symbol,
)
from torch_investigate.tools.code.sites import Site

UNKNOWN_SYMBOL = "<unknown>"
T = TypeVar("T")  # enclosing_symbol of a file outside the index


class CodeIndex:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.units: dict[str, FileUnit] = {}
        self.skipped: list[SkippedFile] = []
        self.parse_issues: list[ParseIssue] = []
        self.build_seconds = 0.0
        self._derived: dict[str, object] = {}  # analyses built on the index, by name

    # ---- building -------------------------------------------------------------

    @classmethod
    def build(cls, root: Path | str, exclude: Collection[str] = ()) -> CodeIndex:
        """`exclude`: files (relative, forward slashes) that are not the repo's code, such
        as the ones git ignores (a copy of the code a logger saved with a run)."""
        started = time.perf_counter()
        index = cls(Path(root).resolve())
        parser = sx.new_parser()
        with _gc_paused():
            for path in iter_python_files(index.root):
                rel = relative_name(index.root, path)
                if rel in exclude:
                    continue
                data = read_source(rel, path)
                index._add(rel, data, parser)
            index._finish()
        index.build_seconds = time.perf_counter() - started
        return index

    @classmethod
    def from_sources(cls, sources: Mapping[str, str | bytes], root: Path | str = ".") -> CodeIndex:
        """An index of in-memory files (`{"train.py": "..."}`): for tests and probes."""
        started = time.perf_counter()
        index = cls(Path(root).resolve())
        parser = sx.new_parser()
        for rel, content in sorted(sources.items()):
            data = content.encode("utf-8") if isinstance(content, str) else content
            index._add(PurePosixPath(rel).as_posix(), check_source(rel, data), parser)
        index._finish()
        index.build_seconds = time.perf_counter() - started
        return index

    def _add(self, rel: str, data: bytes | SkippedFile, parser: Parser) -> None:
        if isinstance(data, SkippedFile):
            self.skipped.append(data)
            return
        try:
            tree = parser.parse(data)
        except Exception as e:  # noqa: BLE001 - a parser failure skips the file, never the index
            self.skipped.append(SkippedFile(file=rel, reason=f"unparseable: {e}"))
            return
        if tree.root_node.has_error:
            self.parse_issues.append(_first_error(rel, tree.root_node))
        self.units[rel] = extract(rel, data, tree)

    def _finish(self) -> None:
        self._modules = {u.module: u for u in self.units.values()}
        self._suffix_modules: dict[str, FileUnit | None] = {}
        self._classes_by_name: dict[str, list[Symbol]] = {}
        for unit in self.units.values():
            for s in unit.symbols:
                if s.kind == "class":
                    self._classes_by_name.setdefault(s.name, []).append(s)
        self._mark_nn_modules()

    def _mark_nn_modules(self) -> None:
        classes = [s for u in self.units.values() for s in u.symbols if s.kind == "class"]
        changed = True
        while changed:  # a fixpoint: bases may be defined later or in other files
            changed = False
            for cls_symbol in classes:
                if cls_symbol.is_nn_module:
                    continue
                unit = self.units[cls_symbol.file]
                for base in cls_symbol.bases:
                    base_name = base.split("[", 1)[0]
                    if is_torch_module_class(resolve(base_name, unit.imports)):
                        cls_symbol.is_nn_module = True
                    else:
                        repo_base = self.find_class(base_name, cls_symbol.file)
                        if repo_base is not None and repo_base.is_nn_module:
                            cls_symbol.is_nn_module = True
                    if cls_symbol.is_nn_module:
                        changed = True
                        break

    def _assignment(self, unit: FileUnit, raw: RawAssignment) -> Assignment:
        made_by = base_call(raw.value)
        callee, resolved = unit.resolve_callee(sx.call_function(made_by))
        a = Assignment(
            file=unit.file,
            line=sx.line(raw.target),
            symbol=raw.scope,
            target=sx.flat(raw.target),
            callee=callee,
            resolved=resolved,
            kind="other",
            text=sx.flat(sx.statement_of(raw.target))[:200],
        )
        a.kind = self._assignment_kind(unit, a)
        return a

    def _assignment_kind(self, unit: FileUnit, a: Assignment) -> AssignmentKind:
        if loss_class_kind(a.resolved) is not None:
            return "loss"
        if is_scheduler(a.resolved):
            return "scheduler"
        if is_optimizer(a.resolved):
            return "optimizer"
        if is_data_loader(a.resolved):
            return "data_loader"
        repo_class = self.find_class(a.callee, unit.file) if a.callee else None
        in_module = a.target.startswith("self.") and self._in_nn_module(unit, a.symbol)
        if in_module and (
            torch_layer(a.resolved) is not None or (repo_class and repo_class.is_nn_module)
        ):
            return "module_attribute"
        if repo_class is not None and repo_class.is_nn_module:
            return "model"
        return "other"

    def _in_nn_module(self, unit: FileUnit, qualname: str) -> bool:
        parts = qualname.split(".")
        for i in range(len(parts) - 1, 0, -1):
            cls_symbol = self.symbol(f"{unit.file}:{'.'.join(parts[:i])}")
            if cls_symbol is not None and cls_symbol.kind == "class":
                return cls_symbol.is_nn_module
        return False

    # ---- files and symbols ------------------------------------------------------

    @property
    def files(self) -> list[str]:
        return sorted(self.units)

    def unit(self, file: str) -> FileUnit | None:
        rel = self.relative(file)
        return self.units.get(rel) if rel is not None else None

    def relative(self, file: str | Path) -> str | None:
        """The indexed relative name of file, else None. Accepts a name relative to the
        root, an absolute path inside it, or a path relative to the working directory
        that lands inside it."""
        raw = str(file).replace("\\", "/")
        if raw in self.units:
            return raw
        path = Path(raw)
        if not path.is_absolute():
            rel = PurePosixPath(raw).as_posix()
            while rel.startswith("./"):
                rel = rel[2:]
            if rel in self.units:
                return rel
            path = Path.cwd() / path
        for candidate in (path, path.resolve()):
            try:
                rel = candidate.relative_to(self.root).as_posix()
            except ValueError:
                continue
            if rel in self.units:
                return rel
        return None

    def lines(self, file: str) -> list[str]:
        unit = self.unit(file)
        return unit.lines if unit is not None else []

    @cached_property
    def symbols(self) -> list[Symbol]:
        return [s for f in self.files for s in self.units[f].symbols]

    @cached_property
    def _symbols_by_id(self) -> dict[str, Symbol]:
        return {s.id: s for s in self.symbols}

    def symbol(self, ref: str) -> Symbol | None:
        """`model.py:Net.forward`, or `Net.forward` when only one file has it."""
        if ":" in ref:
            file, _, qualname = ref.rpartition(":")
            rel = self.relative(file)
            return self._symbols_by_id.get(f"{rel}:{qualname}") if rel else None
        matches = [s for s in self.symbols if s.qualname == ref]
        return matches[0] if len(matches) == 1 else None

    def find_symbols(self, name: str) -> list[Symbol]:
        """Symbols whose qualified name is `name` or ends with `.name`."""
        return [s for s in self.symbols if s.qualname == name or s.qualname.endswith("." + name)]

    def close_matches(self, ref: str, limit: int = 5) -> list[str]:
        ids = [s.id for s in self.symbols if s.kind != "module"] + self.files
        tail = ref.rpartition(":")[2] or ref
        by_name = [s.id for s in self.find_symbols(tail.rsplit(".", 1)[-1])] if tail else []
        fuzzy = difflib.get_close_matches(ref, ids, n=limit, cutoff=0.5)
        return list(dict.fromkeys(by_name + fuzzy))[:limit]

    def symbol_at(self, file: str, line: int) -> Symbol | None:
        """The innermost symbol containing line (the module symbol at top level)."""
        unit = self.unit(file)
        if unit is None:
            return None
        best = unit.symbols[0]
        for s in unit.symbols[1:]:
            if s.line_start <= line <= s.line_end and (
                best.kind == "module"
                or s.line_end - s.line_start <= best.line_end - best.line_start
            ):
                best = s
        return best

    def enclosing_symbol(self, file: str | Path, line: int) -> str:
        """`Class.method`, `function`, `outer.inner` or `<module>` for a runtime location;
        `<unknown>` when the file is not part of the index."""
        rel = self.relative(file)
        if rel is None:
            return UNKNOWN_SYMBOL
        found = self.symbol_at(rel, line)
        return found.qualname if found is not None else MODULE_SYMBOL

    def definition(self, symbol: Symbol) -> Node | None:
        unit = self.units.get(symbol.file)
        return unit.definitions.get(symbol.qualname) if unit is not None else None

    # ---- classes and modules ------------------------------------------------------

    def find_class(self, name: str, from_file: str | None = None) -> Symbol | None:
        """The repo class a (possibly imported, possibly dotted) name refers to."""
        simple = name.rsplit(".", 1)[-1]
        candidates = self._classes_by_name.get(simple, [])
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        unit = self.units.get(from_file) if from_file else None
        if unit is not None:
            local = [c for c in candidates if c.file == unit.file and c.qualname == simple]
            if local and "." not in name and name not in unit.imports:
                return local[0]
            target = resolve(name, unit.imports)
            module = self.module_for(target.rsplit(".", 1)[0], unit) if "." in target else None
            if module is not None:
                for c in candidates:
                    if c.file == module.file:
                        return c
        top_level = [c for c in candidates if c.qualname == simple]
        return top_level[0] if top_level else candidates[0]

    def class_names(self) -> set[str]:
        """Simple names of every class defined in the repo."""
        return set(self._classes_by_name)

    def module_for(self, dotted: str, from_unit: FileUnit | None = None) -> FileUnit | None:
        """The repo file a dotted module name (absolute or relative) refers to."""
        if dotted.startswith(".") and from_unit is not None:
            level = len(dotted) - len(dotted.lstrip("."))
            package = from_unit.module.split(".")
            if not from_unit.file.endswith("__init__.py"):
                package = package[:-1]
            package = package[: len(package) - (level - 1)] if level > 1 else package
            rest = dotted.lstrip(".")
            dotted = ".".join([*package, rest] if rest else package)
        if dotted in self._modules:
            return self._modules[dotted]
        if dotted not in self._suffix_modules:  # `pkg.model` for a repo under `src/`
            suffix = "." + dotted
            matches = [u for name, u in self._modules.items() if name.endswith(suffix)]
            self._suffix_modules[dotted] = matches[0] if len(matches) == 1 else None
        return self._suffix_modules[dotted]

    def module_classes(self) -> list[Symbol]:
        """Repo classes that subclass nn.Module, directly or through a repo base."""
        return [s for s in self.symbols if s.kind == "class" and s.is_nn_module]

    # ---- call sites, assignments and constructs ------------------------------------

    @property
    def calls(self) -> list[CallSite]:
        return [c for f in self.files for c in self.units[f].calls]

    @cached_property
    def assignments(self) -> list[Assignment]:
        """Assignments whose value is a call, with their kind; made on first use."""
        return [
            self._assignment(self.units[f], raw)
            for f in self.files
            for raw in self.units[f].raw_assignments
        ]

    @property
    def imports(self) -> list[ImportBinding]:
        return [i for f in self.files for i in self.units[f].import_records]

    def call_sites(self, resolved_suffix: str) -> list[CallSite]:
        """Calls whose resolved callee is `resolved_suffix` or ends with `.resolved_suffix`."""
        return [
            c
            for c in self.calls
            if c.resolved == resolved_suffix or c.resolved.endswith("." + resolved_suffix)
        ]

    def _sites(self, kind: AssignmentKind, ctor: str) -> list[Site]:
        """Assigned constructions of kind, plus inline ones (`Trainer(model, Adam(...))`)."""
        sites = [Site.from_assignment(a) for a in self.assignments if a.kind == kind]
        seen = {(s.file, s.line) for s in sites}
        for unit in self.units.values():
            for call, node in zip(unit.calls, unit.call_nodes, strict=True):
                if (call.file, call.line) in seen or not _is_ctor(call.resolved, ctor):
                    continue
                sites.append(Site.from_call(kind, call, unit.lines, node))
                seen.add((call.file, call.line))
        return sorted(sites, key=lambda s: (s.file, s.line))

    def optimizer_sites(self) -> list[Site]:
        return self._sites("optimizer", "optimizer")

    def scheduler_sites(self) -> list[Site]:
        return self._sites("scheduler", "scheduler")

    def data_loader_sites(self) -> list[Site]:
        return self._sites("data_loader", "data_loader")

    def loss_sites(self) -> list[Site]:
        """Loss objects (`nn.CrossEntropyLoss()`) and functional loss calls."""
        sites = self._sites("loss", "loss")
        for unit in self.units.values():
            for call in unit.calls:
                if loss_function_kind(call.resolved) is not None:
                    sites.append(Site.from_call("loss", call, unit.lines, None))
        return sorted(sites, key=lambda s: (s.file, s.line))

    def model_sites(self) -> list[Site]:
        return [Site.from_assignment(a) for a in self.assignments if a.kind == "model"]

    def derived(self, key: str, build: Callable[[], T]) -> T:
        """Something computed from the whole index once (the shared analysis)."""
        if key not in self._derived:
            self._derived[key] = build()
        return cast(T, self._derived[key])


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The build allocates many small acyclic objects; collecting during it costs a
    third of the time and frees nothing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _is_ctor(resolved: str, kind: str) -> bool:
    if kind == "optimizer":
        return is_optimizer(resolved) and last(resolved)[:1].isupper()
    if kind == "scheduler":
        return is_scheduler(resolved)
    if kind == "data_loader":
        return is_data_loader(resolved)
    if kind == "loss":
        return loss_class_kind(resolved) is not None
    return False


def _first_error(rel: str, root: Node) -> ParseIssue:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            what = "missing " + node.type if node.is_missing else "syntax error"
            return ParseIssue(
                file=rel, line=sx.line(node), message=f"{what} near line {sx.line(node)}"
            )
        if node.has_error:
            stack.extend(reversed(node.children))
    return ParseIssue(file=rel, line=1, message="syntax error")
