"""Renaming one repo: `rename_repo(src, out)` writes the rewritten copy and returns its
`RenameTable` (what became what, what kept its name and why).

Every occurrence goes through the planner's resolution (the same one its decisions were
made on), so a name is rewritten at its definition and at every use together. Python
files also lose their comments and docstrings with lines kept in place; config files
their comments; the README keeps only the commands it documents.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from tree_sitter import Node

from torch_investigate.evals.rename.commands import CommandMap
from torch_investigate.evals.rename.edits import Edit, apply, prose_edits
from torch_investigate.evals.rename.plan import Plan, Planner, Ref
from torch_investigate.evals.rename.repo import PyFile, Repo
from torch_investigate.evals.rename.strings import role_of
from torch_investigate.evals.rename.table import RenameTable
from torch_investigate.tools.code.syntax import text

PROSE_SUFFIXES = (".md", ".rst", ".txt")
KEPT_TEXT = ("requirements.txt", "requirements-dev.txt", "constraints.txt")


def rename_repo(src: Path, out: Path, commands: list[str] | None = None) -> RenameTable:
    """Write src renamed to out (which must not exist or be empty). `commands` are the
    command lines that will run it (a manifest's), so abbreviated options are seen."""
    repo = Repo.load(src)
    planner = Planner(repo, commands)
    plan = planner.plan()
    renamer = _Rewriter(repo, planner, plan)
    files = renamer.rewrite()
    out.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return renamer.table()


class _Rewriter:
    def __init__(self, repo: Repo, planner: Planner, plan: Plan) -> None:
        self.repo = repo
        self.planner = planner
        self.plan = plan
        self.paths = {rel: self._path(rel) for rel in repo.python}
        self.commands = CommandMap(
            paths=self.paths,
            modules=self._module_paths(),
            flags=plan.flags,
            functions={s: plan.names[s] for s in plan.module_level if s in plan.names},
        )
        self.symbols: dict[str, dict[str, str]] = {}

    # ---- files -----------------------------------------------------------------------

    def rewrite(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for rel, data in self.repo.files.items():
            name = PurePosixPath(rel).name
            if rel in self.repo.python:
                out[self.paths[rel]] = self._python(self.repo.python[rel])
            elif rel in self.planner.configs:
                new = self.planner.configs[rel].rewrite(self.plan.config_keys)
                out[rel] = new if new is not None else data
            elif name.lower().startswith("readme"):
                readme = self.commands.readme(data.decode("utf-8", "replace"))
                if readme is not None:
                    out[rel] = readme.encode()
            elif name == "Makefile" or name.endswith(".mk"):
                out[rel] = self.commands.makefile(data.decode("utf-8", "replace")).encode()
            elif name.endswith(".sh"):
                out[rel] = self.commands.shell(data.decode("utf-8", "replace")).encode()
            elif name == "pyproject.toml":
                out[rel] = self.commands.pyproject(data.decode("utf-8", "replace")).encode()
            elif name.lower().endswith(PROSE_SUFFIXES) and name not in KEPT_TEXT:
                continue  # prose
            else:
                out[rel] = data
        return out

    def _path(self, rel: str) -> str:
        parts = rel.split("/")
        new = []
        for i, part in enumerate(parts[:-1]):
            folder = "/".join(parts[: i + 1])
            renamed = folder in self.repo.packages and part in self.plan.modules
            new.append(self.plan.modules[part] if renamed else part)
        stem = parts[-1][:-3]
        new.append(self.plan.modules.get(stem, stem) + ".py")
        return "/".join(new)

    def _module_paths(self) -> dict[str, str]:
        """Dotted module names (from every import root) -> their new dotted names."""
        out = {}
        for dotted, rel in self.repo.modules.items():
            new_rel = self.paths[rel]
            root = next((r for r in self.repo.roots[::-1] if not r or rel.startswith(r + "/")), "")
            inner = new_rel[len(root) + 1 :] if root else new_rel
            parts = inner[: -len(".py")].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if dotted.split(".")[0] == "src" and root == "src":
                continue
            out[dotted] = ".".join(parts)
        return out

    # ---- one Python file -------------------------------------------------------------

    def _python(self, f: PyFile) -> bytes:
        fs = self.planner.p.files[f.rel]
        edits: list[Edit] = []
        p, plan = self.planner, self.plan

        def put(node: Node, ref: Ref | None) -> None:
            new = plan.new(ref)
            if new is not None and new != text(node):
                edits.append(Edit(node.start_byte, node.end_byte, new))

        for scope in fs.scopes:
            for b in scope.bindings.values():
                ref = p.binding_ref(b)
                for site in b.sites:
                    put(site, ref)
        for use in fs.names:
            put(use.node, p.name_ref(use))
        for use in fs.attributes:
            put(use.node, p.attr_ref(use)[0])
        for use in fs.keywords:
            ref, reason = p.keyword_ref(use)
            put(use.node, ref if reason is None else None)
        for use in fs.import_names:
            put(use.node, p.import_name_ref(use))
        for use in fs.module_paths:
            put(use.node, p.module_path_ref(use))
        edits += self._string_edits(fs)
        edits += prose_edits(f.source, f.root)
        self.symbols[f.rel] = self._qualnames(f, edits)
        return apply(f.source, edits)

    def _string_edits(self, fs) -> list[Edit]:  # noqa: ANN001 - FileScopes
        edits = []
        option_nodes = {}
        for opt in self.planner.options:
            if opt.file != fs.file:
                continue
            for node, option in opt.options:
                if option in self.plan.flags:
                    option_nodes[node.start_byte] = self.plan.flags[option]
            if opt.dest_node is not None and opt.dest in self.plan.attributes:
                option_nodes[opt.dest_node.start_byte] = self.plan.names[opt.dest]
        for use in fs.strings:
            content_span = _content_span(use.node)
            if content_span is None:
                continue
            start, end = content_span
            if use.node.start_byte in option_nodes:
                edits.append(Edit(start, end, option_nodes[use.node.start_byte]))
                continue
            role, _ = role_of(use.node)
            if role == "docstring":
                continue
            new = self.plan.new(self.planner.string_ref(use))
            if new is not None:
                edits.append(Edit(start, end, new))
                continue
            mapped = self.commands.code_string(use.content)
            if mapped is not None:
                edits.append(Edit(start, end, mapped))
        return edits

    def _qualnames(self, f: PyFile, edits: list[Edit]) -> dict[str, str]:
        """Old qualified name -> new, for every def and class of the file."""
        renamed = {(e.start, e.end): e.new for e in edits}
        out: dict[str, str] = {}

        def walk(node: Node, old: list[str], new: list[str]) -> None:
            for child in node.named_children:
                target = child
                if child.type == "decorated_definition":
                    target = child.child_by_field_name("definition") or child
                if target.type in ("function_definition", "class_definition"):
                    name = target.child_by_field_name("name")
                    if name is None:
                        continue
                    o = text(name)
                    n = renamed.get((name.start_byte, name.end_byte), o)
                    out[".".join([*old, o])] = ".".join([*new, n])
                    body = target.child_by_field_name("body")
                    if body is not None:
                        walk(body, [*old, o], [*new, n])
                elif child.type in ("if_statement", "block", "try_statement", "with_statement",
                                    "else_clause", "elif_clause", "except_clause", "finally_clause",
                                    "for_statement", "while_statement"):  # fmt: skip
                    walk(child, old, new)

        walk(f.root, [], [])
        return out

    # ---- the record ------------------------------------------------------------------

    def table(self) -> RenameTable:
        plan = self.plan
        return RenameTable.from_plan(
            plan,
            files={rel: new for rel, new in self.paths.items() if rel != new},
            symbols=self.symbols,
            commands=self.commands,
            defined={
                "module-level": len(self.planner.mg),
                "attribute": len(self.planner.ag),
                "local": len(self.planner.local),
                "module": len(self.planner.module_names),
            },
        )


def _content_span(node: Node) -> tuple[int, int] | None:
    parts = [c for c in node.named_children if c.type == "string_content"]
    if any(c.type == "interpolation" for c in node.named_children):
        return None
    if not parts:
        return None
    return parts[0].start_byte, parts[-1].end_byte
