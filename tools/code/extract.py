"""One query over a parsed file: its symbols, imports, call sites and call assignments.

The build keeps only nodes and their enclosing scope; the pydantic records
(`CallSite`, `Assignment`) are made on first use, because a 500-file repo has tens of
thousands of calls and most investigations read a few of them. Assignment kinds that
depend on other files (is `Net` an nn.Module?) are settled by the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node, Query, QueryCursor, Tree

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.names import CONVENTIONAL_ALIASES, resolve
from torch_investigate.tools.code.records import MODULE_SYMBOL, CallSite, ImportBinding, Symbol
from torch_investigate.tools.code.scopes import FileScopes, build_file_scopes

# Method chains that return the same object: `Net().to(device)` is still a Net.
SAME_OBJECT_METHODS = frozenset(
    {"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval", "requires_grad_"}
)
MAX_ARG_TEXT = 160

_QUERY = Query(
    sx.LANGUAGE,
    """
    (function_definition) @def
    (class_definition) @def
    (import_statement) @import
    (import_from_statement) @import
    (call) @call
    (assignment) @assign
    """,
)


@dataclass
class RawAssignment:
    target: Node
    value: Node  # the call on the right
    scope: str


@dataclass
class FileUnit:
    """A parsed file and what the query over it found. Internal to tools.code."""

    file: str  # relative, forward slashes
    source: bytes
    tree: Tree
    lines: list[str]
    module: str  # dotted module name: `pkg/model.py` -> `pkg.model`
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target
    star_imports: list[str] = field(default_factory=list)
    import_records: list[ImportBinding] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)  # the module symbol first
    definitions: dict[str, Node] = field(default_factory=dict)  # qualname -> def/class node
    scope_of: dict[int, str] = field(default_factory=dict)  # def/class node id -> qualname
    call_nodes: list[Node] = field(default_factory=list)
    call_scopes: list[str] = field(default_factory=list)  # aligned with call_nodes
    raw_assignments: list[RawAssignment] = field(default_factory=list)

    def qualname_of(self, definition: Node) -> str | None:
        return self.scope_of.get(definition.id)

    @cached_property
    def scopes(self) -> FileScopes:
        """Name bindings of every scope of the file, built on first use."""
        return build_file_scopes(self.tree.root_node)

    def scope_name(self, node: Node) -> str:
        """The qualified name of the function/class whose body holds node."""
        child, anc = node, node.parent
        while anc is not None:
            if anc.type in ("function_definition", "class_definition"):
                body = anc.child_by_field_name("body")
                if body is not None and body.id == child.id:
                    return self.scope_of.get(anc.id, MODULE_SYMBOL)
            child, anc = anc, anc.parent
        return MODULE_SYMBOL

    def resolve_callee(self, fn: Node | None) -> tuple[str, str]:
        """(as written, resolved through the imports) for a callee expression."""
        if fn is None:
            return "", ""
        dotted = sx.dotted(fn)
        if dotted is None:
            # A method of a computed value (`model(x).argmax`): nothing to resolve, and
            # it must not pass for a module function because its text starts `torch.`.
            written = sx.flat(fn)
            attr = fn.child_by_field_name("attribute") if fn.type == "attribute" else None
            return written, f"<expr>.{sx.text(attr)}" if attr is not None else "<expr>"
        return dotted, resolve(dotted, self.imports)

    def is_module_function(self, fn: Node | None) -> bool:
        """`torch.flatten`, `F.relu`, `np.sort`: a function reached through an imported
        module, not a method of a value (`x.flatten`)."""
        if fn is None or fn.type != "attribute":
            return False
        dotted = sx.dotted(fn)
        if dotted is None:
            return False
        head = dotted.split(".", 1)[0]
        return head in self.imports or head in CONVENTIONAL_ALIASES

    @cached_property
    def calls(self) -> list[CallSite]:
        records = []
        for node, scope in zip(self.call_nodes, self.call_scopes, strict=True):
            callee, resolved = self.resolve_callee(sx.call_function(node))
            positional, keywords = sx.call_args(node)
            records.append(
                CallSite(
                    file=self.file,
                    line=sx.line(node),
                    symbol=scope,
                    callee=callee,
                    resolved=resolved,
                    args=[_short(a) for a in positional],
                    kwargs={k: _short(v) for k, v in keywords.items()},
                )
            )
        return records


def module_name(rel: str) -> str:
    parts = rel[:-3].split("/") if rel.endswith(".py") else rel.split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def extract(rel: str, source: bytes, tree: Tree) -> FileUnit:
    unit = FileUnit(
        file=rel,
        source=source,
        tree=tree,
        lines=source.decode("utf-8").splitlines(),
        module=module_name(rel),
    )
    unit.symbols.append(
        Symbol(
            file=rel,
            qualname=MODULE_SYMBOL,
            kind="module",
            line_start=1,
            line_end=max(1, len(unit.lines)),
            def_line=1,
        )
    )
    captures = QueryCursor(_QUERY).captures(tree.root_node)
    # Definitions in document order, so a parent's qualname exists before its children.
    for node in sorted(captures.get("def", []), key=lambda n: n.start_byte):
        _add_definition(unit, node)
    for node in sorted(captures.get("import", []), key=lambda n: n.start_byte):
        scope = unit.scope_name(node)
        if node.type == "import_statement":
            _visit_import(unit, node, scope)
        else:
            _visit_import_from(unit, node, scope)
    for node in sorted(captures.get("call", []), key=lambda n: n.start_byte):
        unit.call_nodes.append(node)
        unit.call_scopes.append(unit.scope_name(node))
    for node in sorted(captures.get("assign", []), key=lambda n: n.start_byte):
        _add_assignment(unit, node)
    return unit


def base_call(call: Node) -> Node:
    """`Net(3)` for `Net(3).to(device).train()`: the call that made the object."""
    current = call
    while current.type == "call" and sx.method_name(current) in SAME_OBJECT_METHODS:
        obj = sx.receiver(current)
        if obj is None or obj.type != "call":
            break
        current = obj
    return current


def _short(node: Node) -> str:
    value = sx.flat(node)
    return value if len(value) <= MAX_ARG_TEXT else value[: MAX_ARG_TEXT - 3] + "..."


def _add_definition(unit: FileUnit, node: Node) -> None:
    scope = unit.scope_name(node)
    name = sx.function_name(node) if node.type == "function_definition" else _class_name(node)
    qualname = name if scope == MODULE_SYMBOL else f"{scope}.{name}"
    start = sx.definition_start(node)
    decorators = [sx.flat(d) for d in sx.decorators_of(node)]
    if node.type == "function_definition":
        parent_def = unit.definitions.get(scope) if scope != MODULE_SYMBOL else None
        in_class = parent_def is not None and parent_def.type == "class_definition"
        symbol = Symbol(
            file=unit.file,
            qualname=qualname,
            kind="method" if in_class else "function",
            line_start=sx.line(start),
            line_end=sx.end_line(node),
            def_line=sx.line(node),
            params=sx.parameter_names(node),
            decorators=decorators,
        )
    else:
        supers = node.child_by_field_name("superclasses")
        bases = (
            [sx.flat(b) for b in supers.named_children if b.type != "keyword_argument"]
            if supers is not None
            else []
        )
        symbol = Symbol(
            file=unit.file,
            qualname=qualname,
            kind="class",
            line_start=sx.line(start),
            line_end=sx.end_line(node),
            def_line=sx.line(node),
            bases=bases,
            decorators=decorators,
        )
    unit.symbols.append(symbol)
    unit.definitions.setdefault(qualname, node)
    unit.scope_of[node.id] = qualname


def _class_name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return sx.text(name) if name is not None else "<class>"


def _bind_import(unit: FileUnit, node: Node, scope: str, name: str, target: str) -> None:
    # A local import only shadows inside its function, but repos import the same thing
    # either way; the module-level binding wins when both exist.
    if scope == MODULE_SYMBOL or name not in unit.imports:
        unit.imports[name] = target
    unit.import_records.append(
        ImportBinding(file=unit.file, line=sx.line(node), name=name, target=target, symbol=scope)
    )


def _visit_import(unit: FileUnit, node: Node, scope: str) -> None:
    for child in node.named_children:
        if child.type == "dotted_name":
            head = sx.text(child).split(".", 1)[0]
            _bind_import(unit, node, scope, head, head)
        elif child.type == "aliased_import":
            target = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias")
            if target is not None and alias is not None:
                _bind_import(unit, node, scope, sx.text(alias), sx.text(target))


def _visit_import_from(unit: FileUnit, node: Node, scope: str) -> None:
    module_node = node.child_by_field_name("module_name")
    if module_node is None:
        return
    module = sx.flat(module_node).replace(" ", "")
    for child in node.named_children:
        if child.id == module_node.id:
            continue
        if child.type == "wildcard_import":
            unit.star_imports.append(module)
        elif child.type == "dotted_name":
            name = sx.text(child)
            _bind_import(unit, node, scope, name.split(".")[-1], _join(module, name))
        elif child.type == "aliased_import":
            target = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias")
            if target is not None and alias is not None:
                _bind_import(unit, node, scope, sx.text(alias), _join(module, sx.text(target)))


def _join(module: str, name: str) -> str:
    if module.endswith("."):  # `from . import x` / `from .. import x`
        return module + name
    return f"{module}.{name}"


def _add_assignment(unit: FileUnit, node: Node) -> None:
    if node.parent is not None and node.parent.type == "assignment":
        return  # `a = b = f()`: the outer assignment records the whole chain
    targets: list[Node] = []
    value: Node | None = node
    while value is not None and value.type == "assignment":
        left = value.child_by_field_name("left")
        if left is not None:
            targets.append(left)
        value = value.child_by_field_name("right")
    if value is None or value.type != "call":
        return
    scope = unit.scope_name(node)
    for target in targets:
        unit.raw_assignments.append(RawAssignment(target=target, value=value, scope=scope))
